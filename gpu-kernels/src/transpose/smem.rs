//! The shared-memory transposes as specs, and their smem accesses as data.
//!
//! A [`SmemSpec`] is everything that distinguishes one tiled transpose from another: element type, tile, vector
//! width, block shape, row padding, the XOR swizzle and the block order. The CUDA kernel (`transposeSmem` in
//! `transpose.cu`) reads all of it from the `struct swz::Spec` the header renders from the spec
//! ([`SmemSpec::cuda_spec`]): the layout [`SmemSpec::smem`] as `Spec::Smem` (every smem coordinate goes through
//! its `offset(row, col)`), the order as `Spec::Order`. The same spec yields the kernel's warp accesses as data
//! ([`SmemSpec::warp_access`], thread-value layouts of the kernel's index math), which the bank model turns into
//! predicted wavefronts, checked at compile time for every shipped spec and compared with the profiler's
//! counters. The host tests (`tests/host/transpose_smem.rs`) compare them, instruction by instruction, with a
//! transcription of the kernel's thread math.

use crate::frame::{Accesses, SpecAccess};
use swizzle_core::bank::{Op, Width};
use swizzle_core::pattern::{Smem, WarpAccess};
use swizzle_core::raster::Raster;
use swizzle_core::{swizzle, Elem, Swizzle};

/// How the tile sits in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Layout {
    /// Row pitch = TILE, no swizzle: the column-wise side conflicts.
    Unpadded,
    /// Row pitch = TILE + PAD (the classic +1 word).
    Padded,
    /// Row pitch = TILE, an XOR swizzle on the element offset.
    Swizzled,
}

/// Which smem access of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Access {
    /// Step 3: the transposed VEC x VEC blocks are stored (smem rows VEC apart across lanes).
    Write,
    /// Step 4: smem rows are read back contiguously.
    Read,
}

impl Access {
    pub const BOTH: [Access; 2] = [Access::Write, Access::Read];

    pub const fn name(self) -> &'static str {
        match self {
            Access::Write => "write",
            Access::Read => "read",
        }
    }
}

/// One shared-memory tiled transpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmemSpec {
    /// The table name.
    pub name: &'static str,
    pub elem: Elem,
    /// The block moves a `tile x tile` tile.
    pub tile: u32,
    /// Elements per global (and smem) access: 1, or 16 bytes' worth.
    pub vec: u32,
    /// Threads along y; along x there are `tile / vec`.
    pub block_y: u32,
    /// Elements of padding per smem row.
    pub pad: u32,
    /// XOR swizzle on the element offset (the identity when unswizzled).
    pub swizzle: Swizzle,
    /// Which tile the block launched `bid`-th takes (`TileOrder` in the header).
    pub raster: Raster,
    /// Evict-first (`.cs`) global loads and stores.
    pub streaming: bool,
    /// `__launch_bounds__(threads, min_blocks)`: blocks per SM the compiler must fit (registers).
    pub min_blocks: u32,
}

impl SmemSpec {
    pub const fn layout(&self) -> Layout {
        if !self.swizzle.is_identity() {
            Layout::Swizzled
        } else if self.pad > 0 {
            Layout::Padded
        } else {
            Layout::Unpadded
        }
    }

    /// `(blockDim.x, blockDim.y)`.
    pub const fn block(&self) -> (u32, u32) {
        (self.tile / self.vec, self.block_y)
    }

    pub const fn threads(&self) -> u32 {
        self.tile / self.vec * self.block_y
    }

    pub const fn warps(&self) -> u32 {
        self.threads() / 32
    }

    /// Shared memory of one block (dynamic: launched with this many bytes; above 48 KiB the kernel opts in).
    pub const fn smem_bytes(&self) -> u32 {
        self.tile * (self.tile + self.pad) * self.elem.bytes()
    }

    /// Bytes one lane moves per smem instruction.
    pub const fn access_bytes(&self) -> u32 {
        self.vec * self.elem.bytes()
    }

    /// Smem instructions of one kind each warp issues.
    pub const fn instructions(&self, access: Access) -> u32 {
        match access {
            Access::Write => self.tile / self.vec / self.block_y * self.vec,
            Access::Read => self.tile / self.block_y,
        }
    }

    /// The warp instruction of `access`: `sts`/`lds` of [`SmemSpec::access_bytes`] per lane.
    pub const fn op(&self, access: Access) -> Op {
        let w = match Width::from_bytes(self.access_bytes()) {
            Some(w) => w,
            None => panic!("smem access width is not 1, 2, 4, 8 or 16 bytes"),
        };
        match access {
            Access::Write => Op::Sts(w),
            Access::Read => Op::Lds(w),
        }
    }

    /// The tile in shared memory as swizzle-core's layout value: `tile x tile` row-major, padded by `pad`
    /// elements per row, swizzled on element offsets. The header emits it as `Spec::Smem`, the kernel indexes
    /// through its `offset(row, col)`, and the bank model reads the same value.
    pub const fn smem(&self) -> Smem {
        Smem::row_major(self.tile, self.tile, self.elem)
            .with_swizzle(self.swizzle)
            .with_padding(self.pad * self.elem.bytes())
    }

    /// The kernel's `access` as data: every warp instruction one block issues, lane by lane, as a thread-value
    /// layout. Thread `t = 32 * warp + lane` is `(tx, ty) = (t % BLOCK_X, t / BLOCK_X)`, and (from
    /// `transposeSmem`)
    ///
    /// ```text
    ///   write (step 3), per-warp instruction n = jj * VEC + i:  (row, col) = (VEC*tx + i, VEC*(ty + jj*BLOCK_Y))
    ///   read  (step 4), per-warp instruction m:                 (row, col) = (ty + m*BLOCK_Y, VEC*tx)
    /// ```
    /// so `tx` and `ty` are lane (and warp) digits with strides `(VEC, 0)` / `(0, VEC)` for the write and
    /// `(0, VEC)` / `(1, 0)` for the read, `i`, `jj`, `m` are instruction digits, and instruction `n` of warp `w`
    /// is index `n + per_warp * w`. The unswizzled write puts a warp's lanes `VEC` rows apart (the bank
    /// conflict the swizzle removes).
    pub const fn warp_access(&self, access: Access) -> WarpAccess {
        let v = self.vec;
        let (bx, by) = self.block();
        let a = WarpAccess::new(access.name(), self.op(access));
        let (a, tx, ty) = match access {
            Access::Write => (a.instr(v, 1, 0).instr(bx / by, 0, v * by), (v, 0), (0, v)),
            Access::Read => (a.instr(self.tile / by, by, 0), (0, v), (1, 0)),
        };
        thread_digits(a, bx, self.warps(), tx, ty)
    }

    /// Both accesses, each marked conflict-free unless this is an unpadded baseline (which conflicts on purpose).
    pub const fn accesses(&self) -> Accesses {
        let checked = !matches!(self.layout(), Layout::Unpadded);
        Accesses::new()
            .with(SpecAccess {
                label: "write",
                smem: self.smem(),
                access: self.warp_access(Access::Write),
                conflict_free: checked,
            })
            .with(SpecAccess {
                label: "read",
                smem: self.smem(),
                access: self.warp_access(Access::Read),
                conflict_free: checked,
            })
    }

    /// The name (for `assert_specs_conflict_free!`'s messages).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Shape rules the kernel's `static_assert`s state too.
    pub const fn is_valid(&self) -> bool {
        self.vec > 0
            && self.tile.is_multiple_of(self.vec)
            && self.block_y > 0
            && (self.tile / self.vec).is_multiple_of(self.block_y)
            && self.threads().is_multiple_of(32)
            && self.threads() <= 1024
            && self.pad.is_multiple_of(self.vec)
            && self.smem_bytes() <= 227 * 1024
            && self.swizzle.period() <= (self.tile * self.tile) as u64
    }

    /// The spec as the C++ struct `swz::Spec` the kernel reads every number from: `T`, `TILE`, `VEC`,
    /// `BLOCK_Y`, `STREAM`, the layout `Smem` (with `offset(row, col)`) and the block order `Order`.
    pub fn cuda_spec(&self) -> swizzle_core::cuda::Spec {
        swizzle_core::cuda::Spec::new("Spec")
            .doc(self.to_string())
            .bits_of("T", self.elem)
            .int("TILE", self.tile.into())
            .int("VEC", self.vec.into())
            .int("BLOCK_Y", self.block_y.into())
            .flag("STREAM", self.streaming)
            .layout("Smem", self.smem())
            .order("Order", self.raster)
    }

    /// The NVRTC switches (no numbers of the spec: those are in [`SmemSpec::cuda_spec`]): `-DSMEM_KERNEL=1`
    /// compiles `transposeSmem`, and `-DMIN_BLOCKS=N` when the spec asks for an occupancy target (an explicit
    /// minimum of 1 would change the register budget, so it is left out then).
    pub fn options(&self) -> Vec<String> {
        let mut o = vec!["-DSMEM_KERNEL=1".to_string()];
        if self.min_blocks > 1 {
            o.push(format!("-DMIN_BLOCKS={}", self.min_blocks));
        }
        o
    }

    /// This spec with its blocks taking tiles in `raster` order.
    pub const fn with_raster(self, name: &'static str, raster: Raster) -> SmemSpec {
        SmemSpec {
            name,
            raster,
            ..self
        }
    }

    /// This spec with evict-first global loads and stores.
    pub const fn with_streaming(self, name: &'static str) -> SmemSpec {
        SmemSpec {
            name,
            streaming: true,
            ..self
        }
    }

    /// This spec with `block_y` rows of threads per block (same tile, same layout).
    pub const fn with_block_y(self, name: &'static str, block_y: u32) -> SmemSpec {
        let s = SmemSpec {
            name,
            block_y,
            ..self
        };
        assert!(s.is_valid(), "invalid smem spec");
        s
    }

    /// This spec compiled for at least `min_blocks` resident blocks per SM.
    pub const fn with_min_blocks(self, name: &'static str, min_blocks: u32) -> SmemSpec {
        SmemSpec {
            name,
            min_blocks,
            ..self
        }
    }
}

impl std::fmt::Display for SmemSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (bx, by) = self.block();
        write!(
            f,
            "{} {}: tile {}x{}, {} B accesses, block ({bx},{by}), pad {}, {}",
            self.name,
            self.elem,
            self.tile,
            self.tile,
            self.access_bytes(),
            self.pad,
            self.swizzle
        )?;
        if self.raster != Raster::Identity {
            write!(f, ", order {}", self.raster)?;
        }
        if self.streaming {
            write!(f, ", .cs loads/stores")?;
        }
        if self.min_blocks > 1 {
            write!(f, ", >= {} blocks/SM", self.min_blocks)?;
        }
        Ok(())
    }
}

/// Add the digits of `(tx, ty) = (t % bx, t / bx)`, `t = 32 * warp + lane`, with `(row, col)` strides `tx_s`
/// and `ty_s`: lane digits, then warp digits after the instruction digits already there. Needs `bx` to divide 32
/// or 32 to divide `bx` (every power-of-two block).
const fn thread_digits(
    a: WarpAccess,
    bx: u32,
    warps: u32,
    tx_s: (u32, u32),
    ty_s: (u32, u32),
) -> WarpAccess {
    if bx <= 32 {
        assert!(
            32 % bx == 0,
            "BLOCK_X must divide 32 or be a multiple of it"
        );
        let rows_per_warp = 32 / bx;
        a.lane(bx, tx_s.0, tx_s.1)
            .lane(rows_per_warp, ty_s.0, ty_s.1)
            .instr(warps, ty_s.0 * rows_per_warp, ty_s.1 * rows_per_warp)
    } else {
        assert!(
            bx.is_multiple_of(32),
            "BLOCK_X must divide 32 or be a multiple of it"
        );
        let warps_per_row = bx / 32;
        a.lane(32, tx_s.0, tx_s.1)
            .instr(warps_per_row, tx_s.0 * 32, tx_s.1 * 32)
            .instr(warps / warps_per_row, ty_s.0, ty_s.1)
    }
}

const fn spec(
    name: &'static str,
    elem: Elem,
    tile: u32,
    vec: u32,
    block_y: u32,
    pad: u32,
    sw: Swizzle,
) -> SmemSpec {
    let s = SmemSpec {
        name,
        elem,
        tile,
        vec,
        block_y,
        pad,
        swizzle: sw,
        raster: Raster::Identity,
        streaming: false,
        min_blocks: 1,
    };
    assert!(s.is_valid(), "invalid smem spec");
    s
}

const ID: Swizzle = Swizzle::IDENTITY;

// The classic CUDA-samples shape: 32x32 tile, (32,8) threads, one element per access. Padding is one 4-byte word
// per row (1 fp32, 2 fp16: one half of padding still leaves 2-way conflicts). Swizzles are on element offsets:
// for fp32 the row (5 bits) is XORed into the column word; for fp16 the row's bits 1..4 into the column's word
// index (pairs of halves share a word, so bit 0 stays).
pub const CLASSIC_UNPADDED_F32: SmemSpec = spec("smem-unpadded-t32", Elem::F32, 32, 1, 8, 0, ID);
pub const CLASSIC_PADDED_F32: SmemSpec = spec("smem-padded-t32", Elem::F32, 32, 1, 8, 1, ID);
pub const CLASSIC_SWIZZLED_F32: SmemSpec = spec(
    "smem-swizzled-t32",
    Elem::F32,
    32,
    1,
    8,
    0,
    swizzle!(B = 5, M = 0, S = 5),
);
pub const CLASSIC_UNPADDED_F16: SmemSpec = spec("smem-unpadded-t32", Elem::F16, 32, 1, 8, 0, ID);
pub const CLASSIC_PADDED_F16: SmemSpec = spec("smem-padded-t32", Elem::F16, 32, 1, 8, 2, ID);
pub const CLASSIC_SWIZZLED_F16: SmemSpec = spec(
    "smem-swizzled-t32",
    Elem::F16,
    32,
    1,
    8,
    0,
    swizzle!(B = 4, M = 1, S = 5),
);

// Vectorised: 16-byte global loads and stores, VEC x VEC register transpose, 16-byte smem accesses. The write
// lanes hit smem rows VEC apart, so row bits log2(VEC).. select the 16-byte chunk: Sw<3, log2 VEC, log2 TILE>
// XORs 3 of them into the chunk index (8 chunks = one 128-byte bank line). Padding cannot fix this pattern:
// a pad that keeps 16-byte alignment moves rows VEC apart by a multiple of 64 bytes.
pub const VEC_UNPADDED_F32: SmemSpec = spec("smem-unpadded-t64v4", Elem::F32, 64, 4, 16, 0, ID);
pub const VEC_SWIZZLED_F32: SmemSpec = spec(
    "smem-swizzled-t64v4",
    Elem::F32,
    64,
    4,
    16,
    0,
    swizzle!(B = 3, M = 2, S = 6),
);
pub const VEC_SWIZZLED_F32_BY8: SmemSpec =
    VEC_SWIZZLED_F32.with_block_y("smem-swizzled-t64v4-by8", 8);
pub const VEC_SWIZZLED_F32_T32: SmemSpec = spec(
    "smem-swizzled-t32v4",
    Elem::F32,
    32,
    4,
    8,
    0,
    swizzle!(B = 3, M = 2, S = 5),
);
// 128x128 fp32 tile (64 KiB, dynamic shared memory): 512-byte row segments in both global directions.
pub const VEC_SWIZZLED_F32_T128: SmemSpec = spec(
    "smem-swizzled-t128v4",
    Elem::F32,
    128,
    4,
    8,
    0,
    swizzle!(B = 3, M = 2, S = 7),
);

// Tuning variants of the fastest spec (see BENCHMARKS.md "Transpose"): block order, cache hints, occupancy.
pub const VEC_SWIZZLED_F32_GM16: SmemSpec =
    VEC_SWIZZLED_F32.with_raster("smem-swizzled-t64v4-gm16", Raster::GroupM { group: 16 });
pub const VEC_SWIZZLED_F32_GM32: SmemSpec =
    VEC_SWIZZLED_F32.with_raster("smem-swizzled-t64v4-gm32", Raster::GroupM { group: 32 });
/// Column-major block order (one group-m band as tall as the grid): concurrent blocks write long output rows.
pub const VEC_SWIZZLED_F32_COLS: SmemSpec = VEC_SWIZZLED_F32.with_raster(
    "smem-swizzled-t64v4-colmajor",
    Raster::GroupM { group: 1 << 16 },
);
pub const VEC_SWIZZLED_F32_COLS_CS: SmemSpec =
    VEC_SWIZZLED_F32_COLS.with_streaming("smem-swizzled-t64v4-colmajor-cs");
pub const VEC_SWIZZLED_F32_CS: SmemSpec = VEC_SWIZZLED_F32.with_streaming("smem-swizzled-t64v4-cs");
pub const VEC_SWIZZLED_F32_BY4: SmemSpec =
    VEC_SWIZZLED_F32.with_block_y("smem-swizzled-t64v4-by4", 4);
pub const VEC_SWIZZLED_F32_MB8: SmemSpec =
    VEC_SWIZZLED_F32.with_min_blocks("smem-swizzled-t64v4-mb8", 8);
pub const VEC_UNPADDED_F16: SmemSpec = spec("smem-unpadded-t128v8", Elem::F16, 128, 8, 16, 0, ID);
pub const VEC_SWIZZLED_F16: SmemSpec = spec(
    "smem-swizzled-t128v8",
    Elem::F16,
    128,
    8,
    16,
    0,
    swizzle!(B = 3, M = 3, S = 7),
);
pub const VEC_SWIZZLED_F16_T64: SmemSpec = spec(
    "smem-swizzled-t64v8",
    Elem::F16,
    64,
    8,
    8,
    0,
    swizzle!(B = 3, M = 3, S = 6),
);
pub const VEC_SWIZZLED_F16_COLS: SmemSpec = VEC_SWIZZLED_F16.with_raster(
    "smem-swizzled-t128v8-colmajor",
    Raster::GroupM { group: 1 << 16 },
);
pub const VEC_SWIZZLED_F16_GM16_CS: SmemSpec = VEC_SWIZZLED_F16
    .with_raster("smem-swizzled-t128v8-gm16-cs", Raster::GroupM { group: 16 })
    .with_streaming("smem-swizzled-t128v8-gm16-cs");

/// Every shipped shared-memory transpose.
pub const SPECS: [SmemSpec; 23] = [
    CLASSIC_UNPADDED_F32,
    CLASSIC_PADDED_F32,
    CLASSIC_SWIZZLED_F32,
    VEC_UNPADDED_F32,
    VEC_SWIZZLED_F32,
    VEC_SWIZZLED_F32_BY8,
    VEC_SWIZZLED_F32_T32,
    VEC_SWIZZLED_F32_T128,
    VEC_SWIZZLED_F32_GM16,
    VEC_SWIZZLED_F32_GM32,
    VEC_SWIZZLED_F32_COLS,
    VEC_SWIZZLED_F32_COLS_CS,
    VEC_SWIZZLED_F32_CS,
    VEC_SWIZZLED_F32_MB8,
    VEC_SWIZZLED_F32_BY4,
    CLASSIC_UNPADDED_F16,
    CLASSIC_PADDED_F16,
    CLASSIC_SWIZZLED_F16,
    VEC_UNPADDED_F16,
    VEC_SWIZZLED_F16,
    VEC_SWIZZLED_F16_T64,
    VEC_SWIZZLED_F16_COLS,
    VEC_SWIZZLED_F16_GM16_CS,
];

// Checked at compile time, one const loop over SPECS: every padded or swizzled spec is conflict-free on its smem
// write and its smem read (`SmemSpec::accesses`, the kernel's own index math as data). A conflicting spec fails
// the build with swizzle-core's message, prefixed with the spec's name: access, tile and layout, instruction,
// phase, bank and the colliding lanes with their addresses. (The unpadded specs conflict on purpose: they are
// the baselines, marked so in `accesses`.)
crate::assert_specs_conflict_free!(SPECS);
