//! GEMM tile configurations as specs, their shared-memory layouts, and every smem access they issue, as data.
//!
//! A [`GemmSpec`] is everything that distinguishes one kernel from another: block tile `BM x BN x BK`, warp tile
//! `WM x WN`, pipeline depth, how the smem tiles are laid out ([`SmemKind`]) and the block order ([`Raster`]).
//! From it (plus the B layout and the output type, chosen at run time) come:
//!
//! - the three smem tiles ([`GemmSpec::a_smem`], [`GemmSpec::b_smem`], [`GemmSpec::c_smem`]) as swizzle-core
//!   [`Smem`] values, whose `offset(row, col)` the generated header hands to `gemm.cu`;
//! - the six warp accesses the kernel makes on them ([`GemmSpec::accesses`]): the cp.async fills of A and B, the
//!   ldmatrix reads of A and B, the epilogue's smem write and read back. Each is a swizzle-core [`Pattern`]
//!   walking one tile; the bank model costs it, the build checks the shipped specs conflict-free (bottom of this
//!   file), and the device's Nsight Compute counts are compared with the model gpu-bench derives from them.
//!
//! The swizzles are derived, not picked: [`ldmatrix_swizzle`] for tiles read by ldmatrix/stmatrix (8 rows of 16
//! bytes per phase) and [`acc_swizzle`] for the fp32 accumulator scratch (4 rows of 32 bytes per half-warp).
//!
//! Assumption (labelled, not measured): a 16-byte `cp.async` costs what an `sts128` to the same addresses costs.
//! Nsight Compute has no wavefront count for cp.async fills.

use swizzle_core::layout::ldmatrix_swizzle;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::raster::Raster;
use swizzle_core::units::Elem;
use swizzle_core::wgmma::{Major, OperandTile};
use swizzle_core::Size;
use swizzle_core::{ByteMode, Swizzle};

/// Alignment of the ring with [`GemmSpec::tma_fill`]: the 128B swizzle's period (TMA swizzles address bits).
pub const TMA_ALIGN: u32 = ByteMode::Sw128.alignment();

/// How every smem tile of a spec is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum SmemKind {
    /// The derived XOR swizzles ([`ldmatrix_swizzle`], [`acc_swizzle`]).
    Swizzled,
    /// Plain row-major: the baseline the swizzle is measured against (ldmatrix conflicts 4- or 8-way).
    Unswizzled,
    /// Plain row-major with 16 bytes after each row (the classic fix; costs smem, keeps 16-byte alignment).
    Padded,
}

impl SmemKind {
    pub const fn name(self) -> &'static str {
        match self {
            SmemKind::Swizzled => "swizzled",
            SmemKind::Unswizzled => "unswizzled",
            SmemKind::Padded => "padded",
        }
    }
}

/// Padding of [`SmemKind::Padded`] rows, bytes.
pub const PAD_BYTES: u32 = 16;

/// How B sits in global memory (A is always `M x K` row-major; C is `M x N` row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum BLayout {
    /// B is `K x N` row-major (BLAS "NN" in row-major terms): the smem tile is `BK x BN`, read with
    /// `ldmatrix.trans`.
    Kn,
    /// B is `N x K` row-major (C = A·Bᵀ, "TN"): the smem tile is `BN x BK`, read with plain `ldmatrix`.
    Nk,
}

impl BLayout {
    pub const BOTH: [BLayout; 2] = [BLayout::Kn, BLayout::Nk];

    pub const fn name(self) -> &'static str {
        match self {
            BLayout::Kn => "nn",
            BLayout::Nk => "tn",
        }
    }
}

/// Width of the output elements, as far as the smem epilogue is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum OutWidth {
    /// fp16 / bf16: written to smem with `stmatrix.x4`.
    B16,
    /// fp32: written to smem as accumulator pairs (`st.shared.v2.f32`, the `mma.acc` pattern).
    F32,
}

impl OutWidth {
    pub const BOTH: [OutWidth; 2] = [OutWidth::B16, OutWidth::F32];

    /// The width an output type is written with: 4-byte types as accumulator pairs, the rest with `stmatrix`.
    pub const fn of(out: Elem) -> OutWidth {
        if out.bytes() == 4 {
            OutWidth::F32
        } else {
            OutWidth::B16
        }
    }

    pub const fn elem(self) -> Elem {
        match self {
            OutWidth::B16 => Elem::F16,
            OutWidth::F32 => Elem::F32,
        }
    }
}

/// The XOR swizzle (on fp32 element offsets) for the fp32 epilogue scratch, rows of `row_bytes` >= 128: the
/// accumulator store (`mma.acc`, `st.shared.v2.f32`) puts each half-warp on 4 rows x 32 bytes at one column, so the
/// 32-byte unit (`M = 3` on fp32) within the 128-byte line is XORed with the row's low 2 bits:
/// `Sw<2, 3, log2(row_bytes / 32)>` (64 floats per row: `Sw<2,3,3>`).
///
/// ```
/// use gpu_kernels::gemm::spec::acc_swizzle;
/// use swizzle_core::Swizzle;
/// assert_eq!(acc_swizzle(256), Swizzle::new(2, 3, 3));
/// ```
pub const fn acc_swizzle(row_bytes: u32) -> Swizzle {
    assert!(
        row_bytes >= 128 && row_bytes.is_power_of_two(),
        "acc_swizzle: rows must be a power of two >= 128 bytes"
    );
    Swizzle::new(2, 3, (row_bytes / 32).trailing_zeros() as i32)
}

/// One GEMM kernel configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmSpec {
    /// The table name.
    pub name: &'static str,
    /// Block tile: `bm x bn` of C, `bk` of K per pipeline stage.
    pub bm: u32,
    pub bn: u32,
    pub bk: u32,
    /// Warp tile `wm x wn` of C (multiples of 16 x 16).
    pub wm: u32,
    pub wn: u32,
    /// cp.async ring depth.
    pub stages: u32,
    pub smem: SmemKind,
    /// Which C tile the block launched `bid`-th computes (`GemmOrder` in the header; x = N tile, y = M tile).
    pub raster: Raster,
    /// `__launch_bounds__(threads, min_blocks)`.
    pub min_blocks: u32,
    /// Load the next k-tile's first fragments across the k-tile barrier (the barrier sits before the tile's last
    /// mma step); `false`: one barrier at the top of each k-tile, first fragments loaded after it.
    pub prefetch: bool,
    /// L2 prefetch size of the cp.async fills, in bytes: 0 (none), 128 or 256 (`.L2::128B` / `.L2::256B`). On a
    /// miss L2 then fetches the whole aligned block around a 16-byte copy from DRAM, so the next k-tiles' bytes of
    /// the same row are on their way before they are asked for.
    pub l2_prefetch: u32,
    /// Fill the ring with TMA (`cp.async.bulk.tensor`, one elected thread, an mbarrier per slot) instead of
    /// per-thread 16-byte `cp.async` copies: everything else (ldmatrix, mma.sync, barriers, epilogue) unchanged.
    /// Needs 128-byte K rows (`bk` = 64 16-bit elements: TMA's 128B swizzle, which must be the tile's layout; see
    /// [`GemmSpec::tma_tiles`]) and B stored N x K. Not the shipped fill (that is `cp.async`); it is here to show
    /// what the fill costs.
    pub tma_fill: bool,
}

/// The input element as the layouts see it (fp16 and bf16 are both 2 bytes: one layout serves both).
pub const IN: Elem = Elem::F16;

impl GemmSpec {
    pub const fn warps_m(&self) -> u32 {
        self.bm / self.wm
    }
    pub const fn warps_n(&self) -> u32 {
        self.bn / self.wn
    }
    pub const fn warps(&self) -> u32 {
        self.warps_m() * self.warps_n()
    }
    pub const fn threads(&self) -> u32 {
        self.warps() * 32
    }
    /// m16 fragments per warp tile row-wise, n8 fragments column-wise.
    pub const fn mi(&self) -> u32 {
        self.wm / 16
    }
    pub const fn ni(&self) -> u32 {
        self.wn / 8
    }

    /// `plain` laid out as this spec says, its rows `row_bytes` long; `acc` picks the accumulator swizzle.
    const fn lay_out(&self, plain: Smem, row_bytes: u32, acc: bool) -> Smem {
        match self.smem {
            SmemKind::Unswizzled => plain,
            SmemKind::Padded => plain.with_padding(PAD_BYTES),
            SmemKind::Swizzled if acc => plain.with_swizzle(acc_swizzle(row_bytes)),
            SmemKind::Swizzled => {
                plain.with_swizzle(ldmatrix_swizzle(row_bytes, plain.tile().elem))
            }
        }
    }

    /// One stage of A: `bm x bk`, K contiguous.
    pub const fn a_smem(&self) -> Smem {
        self.lay_out(
            Smem::row_major(self.bm, self.bk, IN),
            self.bk * IN.bytes(),
            false,
        )
    }

    /// One stage of B: `bk x bn` (N contiguous) for [`BLayout::Kn`], `bn x bk` (K contiguous) for
    /// [`BLayout::Nk`].
    pub const fn b_smem(&self, b: BLayout) -> Smem {
        let (rows, cols) = match b {
            BLayout::Kn => (self.bk, self.bn),
            BLayout::Nk => (self.bn, self.bk),
        };
        self.lay_out(Smem::row_major(rows, cols, IN), cols * IN.bytes(), false)
    }

    /// One warp's epilogue scratch: a `16 x wn` slice of its C tile (one m16 row of fragments at a time).
    pub const fn c_smem(&self, out: OutWidth) -> Smem {
        let e = out.elem();
        self.lay_out(
            Smem::row_major(16, self.wn, e),
            self.wn * e.bytes(),
            matches!(out, OutWidth::F32),
        )
    }

    /// Bytes of one pipeline stage (A + B).
    pub const fn stage_bytes(&self, b: BLayout) -> u32 {
        self.a_smem().footprint() + self.b_smem(b).footprint()
    }

    /// Dynamic shared memory of one block: the ring, reused by the epilogue scratch (one per warp).
    /// With [`GemmSpec::tma_fill`]: the ring starts on the 128B swizzle's 1 KiB period (up to 1 KiB of slack before
    /// it) and one 8-byte mbarrier per slot follows the data.
    pub const fn smem_bytes(&self, b: BLayout, out: OutWidth) -> u32 {
        let data = self.data_bytes(b, out);
        if self.tma_fill {
            TMA_ALIGN + data + 8 * self.stages
        } else {
            data
        }
    }

    /// Bytes of the ring and the epilogue scratch (which reuses it).
    pub const fn data_bytes(&self, b: BLayout, out: OutWidth) -> u32 {
        let ring = self.stages * self.stage_bytes(b);
        let scratch = self.warps() * self.c_smem(out).footprint();
        if ring > scratch {
            ring
        } else {
            scratch
        }
    }

    /// The TMA boxes of [`GemmSpec::tma_fill`]: A (`bm x bk`) and B (`bn x bk`), K-major, 128B swizzle.
    pub const fn tma_tiles(&self, input: Elem) -> (OperandTile, OperandTile) {
        (
            OperandTile::new(ByteMode::Sw128, input, Major::K, self.bm, self.bk),
            OperandTile::new(ByteMode::Sw128, input, Major::K, self.bn, self.bk),
        )
    }

    /// Where TMA puts element (row, col) of each box is where the kernel's ldmatrix addressing reads it: the
    /// tile layouts ([`GemmSpec::a_smem`], [`GemmSpec::b_smem`] for N x K) agree with the 128B-swizzled boxes on
    /// every element. (Too long for const evaluation: checked by a test and before a TMA-fill kernel is loaded.)
    pub fn tma_layout_agrees(&self) -> bool {
        let (ta, tb) = self.tma_tiles(IN);
        let (a, b) = (self.a_smem(), self.b_smem(BLayout::Nk));
        let mut r = 0;
        while r < self.bm || r < self.bn {
            let mut c = 0;
            while c < self.bk {
                if r < self.bm && a.byte_addr(r, c) != ta.byte_of(r, c) {
                    return false;
                }
                if r < self.bn && b.byte_addr(r, c) != tb.byte_of(r, c) {
                    return false;
                }
                c += 1;
            }
            r += 1;
        }
        true
    }

    /// The kernel's smem accesses, as (what, tile, pattern). Each pattern issues exactly the address sets the
    /// kernel issues on that tile (which warp issues which instruction, and how often, does not change an
    /// instruction's cost):
    ///
    /// 1. `fill A` / `fill B`: thread `t` copies 16-byte chunk `t + i * threads` of the stage in memory order
    ///    (`cp.async`, costed as `sts128`: [`Pattern::ROW16`]).
    /// 2. `ldmatrix A`: `ldmatrix.x4` on 16 x 16 blocks, lane `l` -> row `l % 16`, column `(l / 16) * 8`
    ///    ([`Pattern::LDMATRIX_X4`]).
    /// 3. `ldmatrix B`: `Kn`: `ldmatrix.x4.trans` on 16 (k) x 16 (n) blocks, same lane order
    ///    ([`Pattern::LDMATRIX_X4_TRANS`]); `Nk`: `ldmatrix.x4` on 16 (n) x 16 (k) blocks, lane `l` -> row
    ///    `(l / 16) * 8 + l % 8`, column `((l / 8) % 2) * 8` ([`Pattern::LDMATRIX_X4_B`]).
    /// 4. `epilogue write`: b16 out: `stmatrix.x4` of two n8 fragments, A lane order ([`Pattern::STMATRIX_X4`]);
    ///    fp32 out: accumulator pairs ([`Pattern::MMA_ACC`]).
    /// 5. `epilogue read`: `ld.shared.v4` of 16-byte chunks in memory order ([`Pattern::ROW16`]; an `lds128` of
    ///    distinct addresses has the `sts128` phases).
    pub const fn accesses(&self, b: BLayout, out: OutWidth) -> [(&'static str, Smem, Pattern); 6] {
        let ldsm_b = match b {
            BLayout::Kn => Pattern::LDMATRIX_X4_TRANS,
            BLayout::Nk => Pattern::LDMATRIX_X4_B,
        };
        let c_write = match out {
            OutWidth::B16 => Pattern::STMATRIX_X4,
            OutWidth::F32 => Pattern::MMA_ACC,
        };
        [
            ("fill A (cp.async)", self.a_smem(), Pattern::ROW16),
            ("fill B (cp.async)", self.b_smem(b), Pattern::ROW16),
            ("ldmatrix A", self.a_smem(), Pattern::LDMATRIX_X4),
            ("ldmatrix B", self.b_smem(b), ldsm_b),
            ("epilogue write", self.c_smem(out), c_write),
            ("epilogue read", self.c_smem(out), Pattern::ROW16),
        ]
    }

    /// Shape rules `gemm.cu`'s `static_assert`s state too.
    pub const fn is_valid(&self) -> bool {
        self.wm.is_multiple_of(16)
            && self.wn.is_multiple_of(16)
            && self.bm.is_multiple_of(self.wm)
            && self.bn.is_multiple_of(self.wn)
            && self.bk.is_multiple_of(16)
            && self.bk * IN.bytes() >= 64
            && self.threads() <= 1024
            && self.stages >= 2
            && self.stages <= 8
            && (self.bm * self.bk / 8).is_multiple_of(self.threads())
            && (self.bn * self.bk / 8).is_multiple_of(self.threads())
            && (self.bm * self.bk / 8) / self.threads() <= 32
            && (self.bn * self.bk / 8) / self.threads() <= 32
            && matches!(self.l2_prefetch, 0 | 128 | 256)
            && (!self.tma_fill
                || (self.bk * IN.bytes() == 128
                    && self.bm <= 256
                    && self.bn <= 256
                    && self.prefetch
                    && matches!(self.smem, SmemKind::Swizzled)))
            && self.smem_bytes(BLayout::Kn, OutWidth::F32) <= 227 * 1024
            && self.smem_bytes(BLayout::Nk, OutWidth::F32) <= 227 * 1024
    }

    /// This spec under another name with another block order.
    pub const fn with_raster(self, name: &'static str, raster: Raster) -> GemmSpec {
        GemmSpec {
            name,
            raster,
            ..self
        }
    }

    /// This spec under another name with another smem layout (the baselines).
    pub const fn with_smem(self, name: &'static str, smem: SmemKind) -> GemmSpec {
        GemmSpec { name, smem, ..self }
    }

    /// This spec with the k-tile barrier at the top of the tile (no fragment prefetch across it).
    pub const fn without_prefetch(self, name: &'static str) -> GemmSpec {
        GemmSpec {
            name,
            prefetch: false,
            ..self
        }
    }

    /// This spec with its ring filled by TMA ([`GemmSpec::tma_fill`]).
    pub const fn with_tma_fill(self, name: &'static str) -> GemmSpec {
        GemmSpec {
            name,
            tma_fill: true,
            ..self
        }
    }

    /// This spec with another L2 prefetch size on its fills.
    pub const fn with_l2_prefetch(self, name: &'static str, bytes: u32) -> GemmSpec {
        GemmSpec {
            name,
            l2_prefetch: bytes,
            ..self
        }
    }

    /// This spec with another ring depth.
    pub const fn with_stages(self, name: &'static str, stages: u32) -> GemmSpec {
        GemmSpec {
            name,
            stages,
            ..self
        }
    }
}

impl std::fmt::Display for GemmSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}x{}x{} block, {}x{} warps ({} threads), {} stages{}, {} smem, order {}",
            self.name,
            self.bm,
            self.bn,
            self.bk,
            self.wm,
            self.wn,
            self.threads(),
            self.stages,
            if self.prefetch {
                ""
            } else {
                " (no fragment prefetch)"
            },
            self.smem.name(),
            self.raster
        )
    }
}

const fn spec(
    name: &'static str,
    (bm, bn, bk): (u32, u32, u32),
    (wm, wn): (u32, u32),
    stages: u32,
    raster: Raster,
) -> GemmSpec {
    let s = GemmSpec {
        name,
        bm,
        bn,
        bk,
        wm,
        wn,
        stages,
        smem: SmemKind::Swizzled,
        raster,
        min_blocks: 1,
        prefetch: true,
        l2_prefetch: 128,
        tma_fill: false,
    };
    assert!(s.is_valid(), "invalid GEMM spec");
    s
}

const GM8: Raster = Raster::GroupM { group: 8 };

// The tile configurations (all swizzled, warp tiles 64x64, group-m 8 order). See BENCHMARKS.md "GEMM" for the
// sweep that picked the default.
pub const T128X256K32: GemmSpec = spec("t128x256k32s4", (128, 256, 32), (64, 64), 4, GM8);
pub const T256X128K32: GemmSpec = spec("t256x128k32s4", (256, 128, 32), (64, 64), 4, GM8);
pub const T128X128K32: GemmSpec = spec("t128x128k32s4", (128, 128, 32), (64, 64), 4, GM8);
pub const T128X256K64: GemmSpec = spec("t128x256k64s3", (128, 256, 64), (64, 64), 3, GM8);
pub const T128X256K32S3: GemmSpec = T128X256K32.with_stages("t128x256k32s3", 3);
pub const T256X128K64: GemmSpec = spec("t256x128k64s3", (256, 128, 64), (64, 64), 3, GM8);

pub const T256X128K32S3: GemmSpec = T256X128K32.with_stages("t256x128k32s3", 3);
pub const T128X256K64S4: GemmSpec = T128X256K64.with_stages("t128x256k64s4", 4);
pub const T128X256K32S5: GemmSpec = T128X256K32.with_stages("t128x256k32s5", 5);
pub const T128X128K32S6: GemmSpec = T128X128K32.with_stages("t128x128k32s6", 6);
/// The default tile with the call-1 main loop (barrier at the top of each k-tile): what the prefetch buys.
pub const T128X256K32_NOPF: GemmSpec = T128X256K32.without_prefetch("t128x256k32s4-noprefetch");
/// The default tile without the L2 prefetch on its fills (`.L2::128B`): what the prefetch buys.
pub const T128X256K32_NOL2: GemmSpec = T128X256K32.with_l2_prefetch("t128x256k32s4-nol2", 0);
/// The default tile with 256-byte L2 prefetch.
pub const T128X256K32_L2_256: GemmSpec = T128X256K32.with_l2_prefetch("t128x256k32s4-l2-256", 256);
/// 128x128 with the call-1 main loop.
pub const T128X128K32_NOPF: GemmSpec = T128X128K32.without_prefetch("t128x128k32s4-noprefetch");

/// The configurations the sweep compares (all conflict-free, checked below). (128x128x64 with 4 warps is not
/// here: ptxas spills 40-80 bytes for it at 255 registers.)
pub const TILES: [GemmSpec; 14] = [
    T128X256K32,
    T256X128K32,
    T128X128K32,
    T128X256K64,
    T256X128K32S3,
    T128X256K32S3,
    T256X128K64,
    T128X256K64S4,
    T128X256K32S5,
    T128X128K32S6,
    T128X256K32_NOPF,
    T128X128K32_NOPF,
    T128X256K32_NOL2,
    T128X256K32_L2_256,
];

/// The default spec (the sweep's winner at 4096³ and 8192³; BENCHMARKS.md says by how much).
pub const DEFAULT: GemmSpec = T128X256K32;

// Block orders of the default tile, for the raster comparison.
pub const ORDER_IDENTITY: GemmSpec =
    DEFAULT.with_raster("t128x256k32s4-identity", Raster::Identity);
pub const ORDER_GM4: GemmSpec =
    DEFAULT.with_raster("t128x256k32s4-gm4", Raster::GroupM { group: 4 });
pub const ORDER_GM16: GemmSpec =
    DEFAULT.with_raster("t128x256k32s4-gm16", Raster::GroupM { group: 16 });
pub const ORDER_STRIP8: GemmSpec =
    DEFAULT.with_raster("t128x256k32s4-strip8", Raster::Strip { tile: 8 });
pub const ORDER_SERP8: GemmSpec =
    DEFAULT.with_raster("t128x256k32s4-serp8", Raster::Serpentine { panel: 8 });

/// The spec to run a problem of `size` with on a GPU with `l2_bytes` of L2: the default tile, in the block order
/// measured best for such a shape (BENCHMARKS.md, GEMM block order: sustained bursts on an H100, every order on the
/// four benchmark shapes).
///
/// When A and B together (16-bit elements) do not fit in L2, their K-panels stream through it, and the L2 footprint
/// of one wave of blocks decides how often a panel comes back from DRAM. For the 128 x 256 tile, group-m 16 keeps
/// 16 A panels of 128 rows and ~8 B panels of 256 rows per 132-block wave (4160 rows of K), group-m 8 keeps 8 and
/// ~16.5 (5248 rows): group-m 16 was 0.4-1.2% faster on 4096³, 8192³ and 16384x16384x1024 (both passes, both B
/// layouts). When they fit (4096x4096x1024: 16 MB), group-m 8 was as fast or faster (by up to 0.5%).
pub const fn for_problem(size: Size, l2_bytes: u64) -> GemmSpec {
    let operand_bytes = (size.m as u64 + size.n as u64) * size.k as u64 * 2;
    if operand_bytes > l2_bytes {
        ORDER_GM16
    } else {
        DEFAULT
    }
}

/// Block orders compared on the default tile (identity is the baseline).
pub const ORDERS: [GemmSpec; 5] = [
    ORDER_IDENTITY,
    ORDER_GM4,
    ORDER_GM16,
    ORDER_STRIP8,
    ORDER_SERP8,
];

// The smem baselines: the default spec with plain or padded tiles, nothing else changed.
pub const UNSWIZZLED: GemmSpec =
    DEFAULT.with_smem("t128x256k32s4-unswizzled", SmemKind::Unswizzled);
pub const PADDED: GemmSpec = DEFAULT.with_smem("t128x256k32s4-padded", SmemKind::Padded);

/// The baselines (they are not required to be conflict-free: that is what they show).
pub const BASELINES: [GemmSpec; 2] = [UNSWIZZLED, PADDED];

/// Every swizzled spec the crate ships: tiles and orders.
pub const SHIPPED: [GemmSpec; TILES.len() + ORDERS.len()] = {
    let mut all = [DEFAULT; TILES.len() + ORDERS.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = if i < TILES.len() {
            TILES[i]
        } else {
            ORDERS[i - TILES.len()]
        };
        i += 1;
    }
    all
};

/// One tile spec with one B layout and one output width: what the compile-time check goes through, as the frame's
/// `accesses()` / `name()` pair.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub spec: GemmSpec,
    pub b: BLayout,
    pub out: OutWidth,
}

impl Checked {
    pub const fn name(&self) -> &'static str {
        self.spec.name
    }

    /// [`GemmSpec::accesses`] as the frame's list, every one required conflict-free.
    pub const fn accesses(&self) -> crate::frame::Accesses {
        let list = self.spec.accesses(self.b, self.out);
        let mut out = crate::frame::Accesses::new();
        let mut i = 0;
        while i < list.len() {
            out = out.with(crate::frame::SpecAccess {
                label: list[i].0,
                smem: list[i].1,
                access: list[i].2.warp(),
                conflict_free: true,
            });
            i += 1;
        }
        out
    }
}

impl Checked {
    /// `spec` with both B layouts and both output widths.
    pub const fn every_layout(spec: GemmSpec) -> [Checked; 4] {
        let mut all = [Checked {
            spec,
            b: BLayout::Kn,
            out: OutWidth::B16,
        }; 4];
        let mut i = 0;
        while i < 4 {
            all[i].b = BLayout::BOTH[i % 2];
            all[i].out = OutWidth::BOTH[i / 2];
            i += 1;
        }
        all
    }
}

/// Every tile spec with both B layouts and both output widths.
pub const CHECKED: [Checked; TILES.len() * 4] = {
    let mut all = [Checked::every_layout(DEFAULT)[0]; TILES.len() * 4];
    let mut i = 0;
    while i < all.len() {
        all[i] = Checked::every_layout(TILES[i / 4])[i % 4];
        i += 1;
    }
    all
};

// Checked at compile time: every access (cp.async fills under the sts128 assumption, ldmatrix reads, epilogue
// write and read back) of every tile spec, for both B layouts and both output widths, costs exactly its ideal
// wavefronts. A conflicting spec fails the build with swizzle-core's message (pattern, tile, instruction, phase,
// bank and the colliding lanes), prefixed with the spec's name.
crate::assert_specs_conflict_free!(CHECKED);

// The order variants share the default's layouts (same tiles, same smem kind), so its check covers them.
const _: () = {
    let mut i = 0;
    while i < ORDERS.len() {
        let o = ORDERS[i];
        assert!(
            o.bm == DEFAULT.bm
                && o.bn == DEFAULT.bn
                && o.bk == DEFAULT.bk
                && o.wn == DEFAULT.wn
                && matches!(o.smem, SmemKind::Swizzled),
            "an order variant must keep the default spec's layouts (or be added to assert_specs_conflict_free!)"
        );
        i += 1;
    }
};

/// Every spec of this module: shipped ones and baselines.
pub fn all() -> Vec<GemmSpec> {
    SHIPPED.iter().chain(BASELINES.iter()).copied().collect()
}
