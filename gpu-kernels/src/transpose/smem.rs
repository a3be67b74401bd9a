//! The shared-memory transposes as specs, and a description of their smem accesses lane by lane.
//!
//! A [`SmemSpec`] is everything that distinguishes one tiled transpose from another: element type, tile, vector
//! width, block shape, row padding and the XOR swizzle. The CUDA kernel (`transposeSmem` in `transpose.cu`)
//! receives the numbers as `-D` options and the swizzle through the generated header; the same spec here yields
//! the byte address each lane of each warp touches in shared memory ([`SmemSpec::lanes`]), which the bank model
//! turns into predicted wavefronts, checked at compile time and compared with the profiler's counters.
//!
//! Index math, mirrored from `transposeSmem` (change both together):
//! ```text
//!   thread t of the block: tx = t % (TILE/VEC), ty = t / (TILE/VEC)
//!   write (step 3), instruction n = jj*VEC + i:  smem (row, col) = (VEC*tx + i, VEC*(ty + jj*BLOCK_Y))
//!   read  (step 4), instruction m:               smem (row, col) = (ty + m*BLOCK_Y, VEC*tx)
//!   element offset = swizzle.apply(row * (TILE + PAD) + col); byte address = offset * sizeof(ELEM)
//! ```

use crate::elem::Elem;
use swizzle_core::bank::{self, Op, Width};
use swizzle_core::pattern::{self, TileReport};
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::raster::Raster;
use swizzle_core::{swizzle, Swizzle};

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

impl Layout {
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Unpadded => "unpadded",
            Layout::Padded => "padded",
            Layout::Swizzled => "swizzled",
        }
    }
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

    /// Element offset of smem (row, col): `swizzle.apply(row * (tile + pad) + col)`.
    pub const fn offset(&self, row: u32, col: u32) -> u32 {
        self.swizzle.apply(row * (self.tile + self.pad) + col)
    }

    /// Byte address that `lane` of `warp` touches in instruction `instr` of `access`.
    pub const fn lane_byte_addr(&self, access: Access, warp: u32, instr: u32, lane: u32) -> u32 {
        let t = warp * 32 + lane;
        let (bx, _) = self.block();
        let (tx, ty) = (t % bx, t / bx);
        let (row, col) = match access {
            Access::Write => {
                let (jj, i) = (instr / self.vec, instr % self.vec);
                (self.vec * tx + i, self.vec * (ty + jj * self.block_y))
            }
            Access::Read => (ty + instr * self.block_y, self.vec * tx),
        };
        self.offset(row, col) * self.elem.bytes()
    }

    /// The 32 lane byte addresses of one warp instruction.
    pub const fn lanes(&self, access: Access, warp: u32, instr: u32) -> [u32; 32] {
        let mut a = [0u32; 32];
        let mut l = 0;
        while l < 32 {
            a[l as usize] = self.lane_byte_addr(access, warp, instr, l);
            l += 1;
        }
        a
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

    /// The bank model's verdict on every instruction of `access` that one block issues (all full tiles issue the
    /// same ones): total wavefronts, total ideal wavefronts, instruction count, and the worst instruction.
    pub const fn cost(&self, access: Access) -> Cost {
        let mut c = Cost {
            wavefronts: 0,
            ideal: 0,
            instructions: 0,
            worst: 0,
            worst_at: (0, 0),
        };
        let mut w = 0;
        while w < self.warps() {
            let mut n = 0;
            while n < self.instructions(access) {
                let r = bank::report(self.op(access), &self.lanes(access, w, n));
                c.wavefronts += r.wavefronts;
                c.ideal += r.ideal;
                c.instructions += 1;
                if r.wavefronts > c.worst {
                    c.worst = r.wavefronts;
                    c.worst_at = (w, n);
                }
                n += 1;
            }
            w += 1;
        }
        c
    }

    /// No instruction of `access` costs more than its ideal.
    pub const fn is_conflict_free(&self, access: Access) -> bool {
        let c = self.cost(access);
        c.wavefronts == c.ideal
    }

    /// Every warp instruction of `access` one block issues, for swizzle-core's reports.
    pub fn accesses(&self, access: Access) -> Vec<pattern::Access> {
        (0..self.warps())
            .flat_map(|w| (0..self.instructions(access)).map(move |n| (w, n)))
            .map(|(w, n)| pattern::Access {
                op: self.op(access),
                addrs: self.lanes(access, w, n),
            })
            .collect()
    }

    /// swizzle-core's tile report of `access` (totals, and the worst instruction's bank map when it conflicts).
    pub fn tile_report(&self, access: Access) -> TileReport {
        TileReport::new(
            format!("{} {} smem {}", self.name, self.elem, access.name()),
            &self.accesses(access),
        )
    }

    /// The tile as swizzle-core's [`Smem`] (tile + padding or swizzle), for its pattern generators and checks.
    pub const fn smem(&self) -> Smem {
        let plain = Smem::row_major(self.tile, self.tile, self.elem.core());
        if self.pad > 0 {
            plain.with_padding(self.pad * self.elem.bytes())
        } else {
            plain.with_swizzle(self.swizzle)
        }
    }

    /// swizzle-core's generator of `access`'s warp instructions on [`SmemSpec::smem`], where one describes this
    /// spec: the classic kernels (VEC 1) store columns ([`Pattern::COL_ST`], lane i -> row i) and load rows
    /// ([`Pattern::ROW_LD`]); the vectorised ones (16-byte vectors) store register-transposed VEC x VEC blocks
    /// ([`Pattern::BLOCK_T16`], lanes VEC rows apart) and load 16-byte row chunks in memory order
    /// ([`Pattern::ROW16`], costed as `sts128`: `lds128` has the same 8-lane phases for distinct addresses). The
    /// generator issues the same set of instructions as [`SmemSpec::lanes`] over one block (the tests check it
    /// address for address). `None` for other vector widths, for padding together with a swizzle (which
    /// [`SmemSpec::smem`] cannot express), and for tiles the generator cannot walk.
    pub const fn pattern(&self, access: Access) -> Option<Pattern> {
        if self.pad > 0 && !self.swizzle.is_identity() {
            return None;
        }
        let p = match (access, self.vec, self.access_bytes()) {
            (Access::Write, 1, _) => Pattern::COL_ST,
            (Access::Read, 1, _) => Pattern::ROW_LD,
            (Access::Write, _, 16) => Pattern::BLOCK_T16,
            (Access::Read, _, 16) => Pattern::ROW16,
            _ => return None,
        };
        match p.check_on(&self.smem()) {
            Ok(()) => Some(p),
            Err(_) => None,
        }
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

    /// The `-D` options that select this spec in `transpose.cu` (ELEM is added by the caller).
    pub fn options(&self) -> Vec<String> {
        let mut o = vec![
            format!("-DTILE={}", self.tile),
            format!("-DVEC={}", self.vec),
            format!("-DBLOCK_Y={}", self.block_y),
            format!("-DPAD={}", self.pad),
            format!("-DSTREAM={}", u32::from(self.streaming)),
        ];
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

/// The bank model's totals for one access kind of one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cost {
    pub wavefronts: u32,
    pub ideal: u32,
    pub instructions: u32,
    /// The most wavefronts any one instruction costs, and its (warp, instruction).
    pub worst: u32,
    pub worst_at: (u32, u32),
}

impl Cost {
    /// Wavefronts per instruction: what Nsight Compute's `wavefronts / inst_executed` measures.
    pub fn per_instruction(&self) -> f64 {
        self.wavefronts as f64 / self.instructions.max(1) as f64
    }

    /// `wavefronts - ideal`: Nsight Compute's bank-conflict count for one block.
    pub const fn conflicts(&self) -> u32 {
        self.wavefronts - self.ideal
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

// Checked at compile time: every padded or swizzled spec is conflict-free on its smem write and its smem read,
// by `assert_conflict_free!` with the spec's own generators (`SmemSpec::pattern`: col.st + row.ld for the classic
// kernels, block16.t + row16 for the vectorised ones). A conflicting spec fails the build with swizzle-core's
// message: pattern, tile and layout, instruction, phase, bank and the colliding lanes with their addresses. (The
// unpadded specs conflict on purpose: they are the baselines. The tests check that the generators issue exactly
// the addresses `SmemSpec::lanes` derives from the kernel.)
macro_rules! assert_specs_conflict_free {
    ($($spec:ident),+ $(,)?) => {
        $(
            swizzle_core::assert_conflict_free!(
                $spec.smem(),
                generator(&$spec, Access::Write),
                generator(&$spec, Access::Read)
            );
        )+
        /// The specs checked by `assert_conflict_free!` just above.
        const COMPILE_CHECKED: &[SmemSpec] = &[$($spec),+];
    };
}

assert_specs_conflict_free!(
    CLASSIC_PADDED_F32,
    CLASSIC_SWIZZLED_F32,
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
    CLASSIC_PADDED_F16,
    CLASSIC_SWIZZLED_F16,
    VEC_SWIZZLED_F16,
    VEC_SWIZZLED_F16_T64,
    VEC_SWIZZLED_F16_COLS,
    VEC_SWIZZLED_F16_GM16_CS,
);

// And no padded or swizzled spec of `SPECS` escapes that list (the message names the spec).
const _: () = {
    let mut i = 0;
    while i < SPECS.len() {
        let s = SPECS[i];
        if !matches!(s.layout(), Layout::Unpadded) && !is_listed(&s, COMPILE_CHECKED) {
            let m = SpecMessage::new(
                &s,
                "is padded or swizzled but not in assert_specs_conflict_free! (transpose/smem.rs): add it there",
            );
            panic!("{}", m.as_str());
        }
        i += 1;
    }
};

/// [`SmemSpec::pattern`], or a build error naming the spec when swizzle-core has no generator for it (such a
/// spec needs a bespoke check on [`SmemSpec::is_conflict_free`] instead).
const fn generator(s: &SmemSpec, access: Access) -> Pattern {
    match s.pattern(access) {
        Some(p) => p,
        None => {
            let m = SpecMessage::new(
                s,
                "has no swizzle-core generator for its smem accesses (VEC neither 1 nor 16 bytes, padding with a \
                 swizzle, or a tile the pattern cannot walk): check it with SmemSpec::is_conflict_free instead",
            );
            panic!("{}", m.as_str())
        }
    }
}

/// `s` is one of `list` (same name, element type and geometry).
const fn is_listed(s: &SmemSpec, list: &[SmemSpec]) -> bool {
    let mut i = 0;
    while i < list.len() {
        let t = &list[i];
        if t.name.len() == s.name.len() && t.elem.bytes() == s.elem.bytes() && t.tile == s.tile {
            let (a, b) = (t.name.as_bytes(), s.name.as_bytes());
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len()
                && t.vec == s.vec
                && t.block_y == s.block_y
                && t.pad == s.pad
                && t.swizzle.bits == s.swizzle.bits
                && t.swizzle.base == s.swizzle.base
                && t.swizzle.shift == s.swizzle.shift
            {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// A build-error message naming a spec, assembled in `const`: `smem spec NAME (ELEM): WHAT`.
struct SpecMessage {
    buf: [u8; 320],
    len: usize,
}

impl SpecMessage {
    const fn new(s: &SmemSpec, what: &str) -> SpecMessage {
        SpecMessage {
            buf: [0; 320],
            len: 0,
        }
        .push("smem spec ")
        .push(s.name)
        .push(" (")
        .push(s.elem.name())
        .push(") ")
        .push(what)
    }

    const fn push(mut self, text: &str) -> SpecMessage {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "smem spec message is not UTF-8",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every element of the tile is written exactly once and read exactly once, at in-range offsets.
    #[test]
    fn accesses_cover_the_tile_once() {
        for s in SPECS {
            let eb = s.elem.bytes();
            let cells = (s.tile * (s.tile + s.pad)) as usize;
            for access in Access::BOTH {
                let mut seen = vec![0u32; cells];
                for w in 0..s.warps() {
                    for n in 0..s.instructions(access) {
                        for a in s.lanes(access, w, n) {
                            assert_eq!(a % s.access_bytes(), 0, "{s}: unaligned {access:?} at {a}");
                            for e in 0..s.vec {
                                seen[(a / eb + e) as usize] += 1;
                            }
                        }
                    }
                }
                let touched = seen.iter().filter(|&&c| c == 1).count();
                assert_eq!(
                    touched,
                    (s.tile * s.tile) as usize,
                    "{s}: {access:?} coverage"
                );
                assert!(
                    seen.iter().all(|&c| c <= 1),
                    "{s}: {access:?} touches a cell twice"
                );
            }
        }
    }

    /// swizzle-core's generators issue exactly the instructions our own lane description does, for every spec
    /// (unpadded baselines included): the same 32-address sets, as many times each, so the same costs.
    #[test]
    fn lanes_agree_with_swizzle_cores_generators() {
        for s in SPECS {
            let smem = s.smem();
            for access in Access::BOTH {
                let p = s
                    .pattern(access)
                    .unwrap_or_else(|| panic!("{s}: no generator"));
                let mut ours: Vec<[u32; 32]> = (0..s.warps())
                    .flat_map(|w| (0..s.instructions(access)).map(move |n| s.lanes(access, w, n)))
                    .collect();
                let mut theirs: Vec<[u32; 32]> = (0..p.instructions(smem.tile))
                    .map(|k| p.addrs(&smem, k))
                    .collect();
                ours.sort_unstable();
                theirs.sort_unstable();
                assert_eq!(ours, theirs, "{s} {access:?} vs {p}");
                let (a, b) = (s.tile_report(access), p.report(&smem));
                assert_eq!(
                    (a.instructions, a.wavefronts, a.ideal),
                    (b.instructions, b.wavefronts, b.ideal),
                    "{s} {access:?} vs {p}"
                );
            }
        }
    }

    /// The vectorised write, instruction by instruction: warp `w`'s store `n = jj * VEC + i` (thread `(tx, ty)`,
    /// block column `j = ty + jj * BLOCK_Y`) is block16.t's instruction `(w + jj * BLOCK_Y * bx / 32) * VEC + i`,
    /// lane for lane; the read's load `m` is row16's instruction `w + m * BLOCK_Y * bx / 32`. Each generator
    /// instruction is hit exactly once.
    #[test]
    fn vectorised_lanes_are_block_t16_and_row16() {
        let vectorised: Vec<SmemSpec> = SPECS.into_iter().filter(|s| s.vec > 1).collect();
        assert_eq!(vectorised.len(), 17);
        for s in vectorised {
            assert_eq!(s.access_bytes(), 16, "{s}");
            let smem = s.smem();
            let (bx, by) = s.block();
            let warps_per_step = by * bx / 32; // warps covering BLOCK_Y block columns
            for (access, p) in [
                (Access::Write, Pattern::BLOCK_T16),
                (Access::Read, Pattern::ROW16),
            ] {
                assert_eq!(s.pattern(access), Some(p), "{s}");
                let mut hit = vec![0u32; p.instructions(smem.tile) as usize];
                for w in 0..s.warps() {
                    for n in 0..s.instructions(access) {
                        let k = match access {
                            Access::Write => {
                                let (jj, i) = (n / s.vec, n % s.vec);
                                (w + jj * warps_per_step) * s.vec + i
                            }
                            Access::Read => w + n * warps_per_step,
                        };
                        assert_eq!(
                            s.lanes(access, w, n),
                            p.addrs(&smem, k),
                            "{s}: {access:?} warp {w} instruction {n} vs {p} instruction {k}"
                        );
                        hit[k as usize] += 1;
                    }
                }
                assert!(hit.iter().all(|&h| h == 1), "{s}: {access:?} {hit:?}");
            }
        }
    }

    /// The compile-time assert can fire, with swizzle-core's detailed message: on the unswizzled vectorised
    /// baselines every block16.t store costs 32 wavefronts (the 64x64 fp32 one is what Nsight Compute measured).
    #[test]
    fn the_compile_time_check_fires_on_the_baselines() {
        let m = swizzle_core::verify::check(&VEC_UNPADDED_F32.smem(), Pattern::BLOCK_T16);
        let text = m
            .as_str()
            .expect("the unswizzled vectorised write conflicts");
        assert!(
            text.starts_with(
                "bank conflict: block16.t (sts128) on 64x64 f32 row-major, unswizzled: instruction 0 of 32 \
                 costs 32 wavefronts (ideal 4); in phase lanes 0..8 bank 0 gets 8 distinct words from lanes \
                 0@0 1@1024 2@2048"
            ),
            "{text}"
        );
        assert!(
            text.contains("block16.t") && text.contains("bank"),
            "{text}"
        );
        let m = swizzle_core::verify::check(&VEC_UNPADDED_F16.smem(), Pattern::BLOCK_T16);
        let text = m.as_str().expect("the unswizzled fp16 write conflicts");
        assert!(
            text.contains("block16.t")
                && text.contains(" bank ")
                && text.contains("costs 32 wavefronts"),
            "{text}"
        );
        for s in [CLASSIC_UNPADDED_F32, CLASSIC_UNPADDED_F16] {
            let m = swizzle_core::verify::check(&s.smem(), s.pattern(Access::Write).unwrap());
            assert!(m.as_str().is_some_and(|t| t.contains("col.st")), "{s}");
        }
        // ... and stays quiet on everything the build checks.
        for s in COMPILE_CHECKED {
            for access in Access::BOTH {
                let m = swizzle_core::verify::check(&s.smem(), generator(s, access));
                assert_eq!(m.as_str(), None, "{s} {access:?}");
            }
        }
    }

    /// The build's completeness check sees every padded or swizzled spec, and names a missing one.
    #[test]
    fn every_padded_or_swizzled_spec_is_checked_at_compile_time() {
        for s in SPECS {
            assert_eq!(
                is_listed(&s, COMPILE_CHECKED),
                s.layout() != Layout::Unpadded,
                "{s}"
            );
        }
        let m = SpecMessage::new(&VEC_SWIZZLED_F32_CS, "is missing");
        assert_eq!(
            m.as_str(),
            "smem spec smem-swizzled-t64v4-cs (fp32) is missing"
        );
        // A spec with no generator: 8-byte vectors.
        let odd = SmemSpec {
            vec: 2,
            ..VEC_SWIZZLED_F32
        };
        assert_eq!(odd.pattern(Access::Write), None);
        let both = SmemSpec {
            pad: 4,
            ..VEC_SWIZZLED_F32
        };
        assert_eq!(both.pattern(Access::Read), None);
    }

    /// The compile-time check is not vacuous: the unpadded baselines do conflict on their smem write.
    #[test]
    fn unpadded_baselines_conflict_and_the_fixes_do_not() {
        for s in SPECS {
            let (w, r) = (s.cost(Access::Write), s.cost(Access::Read));
            assert_eq!(r.conflicts(), 0, "{s}: read");
            match s.layout() {
                Layout::Unpadded => assert!(w.worst >= 8 * w.ideal / w.instructions, "{s}: {w:?}"),
                _ => assert_eq!(w.conflicts(), 0, "{s}: write"),
            }
        }
    }

    /// The swizzles permute elements within a smem row (so the tile needs no extra space), and keep each
    /// access's vector contiguous (the base bits cover the vector).
    #[test]
    fn swizzles_stay_in_their_row_and_keep_vectors() {
        for s in SPECS.iter().filter(|s| s.layout() == Layout::Swizzled) {
            for row in 0..s.tile {
                for col in 0..s.tile {
                    assert_eq!(s.offset(row, col) / s.tile, row, "{s}");
                }
            }
            assert!(1 << s.swizzle.base >= s.vec, "{s}: swizzle splits a vector");
        }
    }
}
