//! The GEMM planner: from a problem (`M x N x K`, element type) and a device, the Hopper GEMM variant to run, with the
//! model's predicted time and what bounds it.
//!
//! The problem is `C (M x N) = X (M x K) · Wᵀ` with `W` stored `N x K` (a linear layer: X tokens, W weights),
//! 16-bit inputs and outputs, fp32 accumulation. A [`Variant`] is one point of the candidate set: block tile
//! `BM x BN x BK` (64-row tiles have one consumer warpgroup, 128-row tiles two), the pipeline depth that fits the
//! shared memory, clusters of 1 or 2 CTAs along M (the pair shares B by multicast), split-K (a cluster of
//! `split` CTAs per tile, each over a part of the K loop; their fp32 partials meet in distributed shared memory
//! and are added in part order, so every run gives the same bits), the block order of the persistent grid, and
//! swap (compute `Cᵀ = W · Xᵀ`, for tiny M: the token count becomes the narrow N side).
//!
//! How one variant is timed ([`estimate`]), every term from a measured rate or a stated assumption:
//! 1. **Tensor, with waves.** The grid is persistent: work units (tiles x splits) are dealt to SMs (pairs of SMs
//!    for clusters of 2) in order, so the busiest SM runs `ceil(units / slots)` of them (stream-K deals out
//!    k-tiles instead, evenly, and pays one partial tile's fixup through L2 per SM). A unit takes
//!    `k_tiles x t_k + t_tile`: `t_k` is one `BM x BN x 64` k-tile at the device's mainloop rate (scaled by
//!    [`Variant::efficiency`]), but no less than [`LOAD_LATENCY_S`]` / stages` (a stage comes back one copy
//!    round trip after it was freed, and the ring holds `stages` of them: what bounds the small-M shapes,
//!    [`Bound::Latency`]), both for the multicast pair and over [`MULTICAST_PAIR_COST`] for a lone CTA (the pair
//!    waits for the slower of its two SMs), `t_tile` the per-tile pipeline fill and epilogue (the persistent
//!    kernel does not overlap them with the next tile's MMAs).
//! 2. **L2 -> SM bytes.** Every k-tile loads `BM x 64` of X and `BN x 64` of W (half of W per CTA under
//!    multicast), at the L2's measured read rate.
//! 3. **HBM bytes.** DRAM reads of X and W from the L2 model ([`crate::l2`]) under the variant's block order,
//!    plus C written once (and the split partials when they do not fit in L2), at the measured D2D copy rate,
//!    after [`HBM_RAMP_S`] (the launch and the first loads, before the stream runs at that rate).
//! 4. **Split reduction.** Per tile, after its mainloop, each CTA of the split cluster stores its partial in
//!    shared memory, signals every CTA of the cluster, and adds its share of every part's partial over
//!    distributed shared memory: [`SPLIT_PART_S`] per part of the split, on the busiest SM's every unit.
//!
//! The predicted time is `max(1, 2, 3) + 4`; the bound is the term that set it (tensor time more than 10% above
//! its perfectly balanced share is reported as wave quantization).
//!
//! What was fitted, on what (H100, bf16, the shipped 128x256x64 cluster-2 kernel, BENCHMARKS.md): `t_k` and
//! `t_tile` from 8192³ (807 TFLOP/s) and 16384x16384x1024 (720 TFLOP/s); 4096³ (778 TFLOP/s, predicted within 2%)
//! and the table's M=16 4096x4096 (12.4 TFLOP/s, predicted within 1%) were not fitted on; the shared-memory feed
//! rate on 128x128 vs 128x256 at 8192³ ([`SMEM_FEED_BYTES_PER_CYCLE`]); the copy round trip
//! [`LOAD_LATENCY_S`] on the bf16 half of one run of the planner's four best kernel shapes at every LLM layer at
//! M <= 512 (157 (shape, variant) times; the round trip held at 2.6 µs, which four stages of 128x256 hide at the
//! fitted mainloop rate, against 2.8 µs by least squares alone; the fp16 half held out); the split's cost per part
//! [`SPLIT_PART_S`] by least squares on the 13 bf16 split-K times of a later run (the plan, the shipped spec and
//! the next two candidates at every LLM layer; 5.41 µs; 12 of 13 within ±25% after, 5 before), the 13 fp16 ones held out (they alone would give 5.44 µs;
//! 12 of 13 within ±25% after, 5 before); the multicast pair's cost [`MULTICAST_PAIR_COST`] on the pair against
//! the lone CTA at the bf16 LLM layers at M = 512 and 2048 (fp16 held out). Assumed, not measured: one consumer warpgroup runs its k-tiles at 85% of two (wherever a
//! 64-row tile was measured the copy round trip bound it, so the data cannot tell); the split of `t_tile` into
//! fill and epilogue (half each).
//!
//! ```
//! use swizzle_core::plan::{plan, Device, Problem, Restrict};
//! use swizzle_core::{Elem, Size};
//! let problem = Problem::new(Size::mnk(8192, 8192, 8192), Elem::BF16);
//! let p = plan(&problem, &Device::H100, Restrict::All).unwrap();
//! assert_eq!(p.best.variant.bm, 128);
//! assert!(p.best.time_s > 1.2e-3 && p.best.time_s < 1.6e-3);
//! ```

use crate::l2::{self, BlockTile, L2Config};
use crate::raster::{Grid, Raster};
use crate::size::Size;
use crate::units::{ByteMode, Elem};
use crate::wgmma::{epilogue_tile, GemmSmem, Major, OperandTile};
use core::fmt;

/// What the planner knows about a GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Device {
    /// The CLI spelling (`h100`, `h200`).
    pub name: &'static str,
    /// Streaming multiprocessors.
    pub sms: u32,
    /// DRAM bytes per second (read + written), the device-to-device copy rate measured on this device kind.
    pub hbm_bytes_per_s: f64,
    /// L2 -> SM read bytes per second, all SMs together.
    pub l2_bytes_per_s: f64,
    /// Seconds for one 128x256x64 k-tile on one SM (two consumer warpgroups, the shipped kernel's mainloop).
    pub k_tile_s: f64,
    /// Seconds per tile outside the mainloop (pipeline fill + epilogue) for a 128x256 tile.
    pub tile_overhead_s: f64,
    /// Dynamic shared memory one block may use.
    pub smem_per_block: u32,
    /// The L2 model's machine (one persistent CTA per SM).
    pub l2: l2::Machine,
}

impl Device {
    /// H100 SXM: 132 SMs; D2D copy 2970 GB/s, L2 reads 11.6 TB/s (both measured, BENCHMARKS.md); the k-tile time
    /// and tile overhead fitted on the shipped kernel (module docs), 227 KiB of shared memory per block.
    pub const H100: Device = Device {
        name: "h100",
        sms: 132,
        hbm_bytes_per_s: 2.97e12,
        l2_bytes_per_s: 11.6e12,
        k_tile_s: 0.6521e-6,
        tile_overhead_s: 1.69e-6,
        smem_per_block: 227 << 10,
        l2: l2::Machine {
            resident: 1,
            ..l2::Machine::H100
        },
    };
    /// H200: the H100's SMs and clocks (the same k-tile and overhead), D2D copy 4150 GB/s (measured), 60 MiB L2
    /// (its L2 read rate is taken to be the H100's: not measured).
    pub const H200: Device = Device {
        name: "h200",
        hbm_bytes_per_s: 4.15e12,
        l2: l2::Machine {
            resident: 1,
            ..l2::Machine::H200
        },
        ..Device::H100
    };

    /// `h100` or `h200`.
    pub fn preset(name: &str) -> Option<Device> {
        match name.trim() {
            "h100" => Some(Device::H100),
            "h200" => Some(Device::H200),
            _ => None,
        }
    }
}

/// One GEMM `C (M x N) = X (M x K) · Wᵀ (W: N x K)` in one element type (X, W and C; fp32 accumulation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Problem {
    /// M (tokens: rows of X and C), N (output features: rows of W, columns of C), K (input features).
    pub size: Size,
    /// Element type of X, W and C.
    pub elem: Elem,
}

impl Problem {
    /// `C (m x n) = X (m x k) · Wᵀ` in `elem`.
    pub const fn new(size: Size, elem: Elem) -> Problem {
        Problem { size, elem }
    }

    /// Floating-point operations: `2 m n k`.
    pub const fn flops(&self) -> f64 {
        2.0 * self.size.m as f64 * self.size.n as f64 * self.size.k as f64
    }

    /// X and W read once, C written once: the least DRAM traffic any kernel has.
    pub const fn min_bytes(&self) -> u64 {
        let Size { m, n, k } = self.size;
        let (m, n, k) = (m as u64, n as u64, k as u64);
        (m * k + n * k + m * n) * self.elem.bytes() as u64
    }
}

/// Why a problem cannot be planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// M, N or K is 0.
    Zero(&'static str),
    /// K must be a multiple of 8 (16-byte rows for the copy engine).
    KNotMultipleOf8(u32),
    /// No candidate fits (only with a restricted candidate set).
    NoCandidate,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Zero(what) => write!(f, "{what} must be >= 1"),
            PlanError::KNotMultipleOf8(k) => write!(f, "K must be a multiple of 8, got {k}"),
            PlanError::NoCandidate => f.write_str("no candidate variant fits this problem"),
        }
    }
}

impl std::error::Error for PlanError {}

/// The K step of every variant (one 128-byte swizzled row of 16-bit elements).
pub const BK: u32 = 64;
/// The most pipeline stages a variant uses: the narrow tiles of small M are bound by the copy round trip, and a
/// deeper ring hides more of it ([`LOAD_LATENCY_S`]).
pub const MAX_STAGES: u32 = 16;
/// Block tile rows: one consumer warpgroup per 64.
pub const BMS: [u32; 2] = [64, 128];
/// Block tile columns (the wgmma N): powers of two, and the multiples of 32 between 64 and 256 that cut the
/// tile count of a layer's N to whole waves (6144 / 192 = 32 columns of tiles, 10240 / 160 = 64, 28672 / 224 =
/// 128).
pub const BNS: [u32; 8] = [32, 64, 96, 128, 160, 192, 224, 256];
/// Split-K factors tried.
pub const SPLITS: [u32; 6] = [1, 2, 4, 8, 16, 32];
/// Block orders tried.
pub const ORDERS: [Raster; 2] = [Raster::GroupM { group: 8 }, Raster::GroupM { group: 16 }];

/// One tile's split reduction per part of the split, on each CTA of the split cluster: partial to shared memory,
/// the ready / free barrier round trips, the share of every part read over distributed shared memory and
/// written (fitted: module docs). A split into `s` parts costs `s` times this per tile.
pub const SPLIT_PART_S: f64 = 5.4e-6;
/// One pipeline stage's copy round trip under load, from the consumer freeing it to its next tile landing: with
/// `stages` in the ring a k-tile takes at least `LOAD_LATENCY_S / stages` (fitted: module docs).
pub const LOAD_LATENCY_S: f64 = 2.6e-6;
/// The time from the launch until the DRAM stream runs at the copy rate (the launch, the first loads' latency):
/// what a kernel bound by its HBM bytes takes beyond `bytes / rate`. Fitted: the median of measured time minus
/// that floor for the planned spec of the six bf16 LLM layers at M = 16 (2.4 to 5.7 us, H100, 16-stage rings,
/// 2026-11-25); the fp16 and M = 128 layers held out.
pub const HBM_RAMP_S: f64 = 4.8e-6;
/// The most split-K parts the kernel runs: one portable cluster (8 CTAs) per tile.
pub const MAX_SPLIT: u32 = 8;
/// Shared-memory bytes per cycle that feed one SM's wgmma: fitted on the one measured narrower tile (bf16 8192³,
/// single CTA: 128x128 at 727 and 684 TFLOP/s vs 128x256 at 757 and 769, two runs: 0.93 on average).
pub const SMEM_FEED_BYTES_PER_CYCLE: f64 = 89.0;
/// One consumer warpgroup's k-tile rate relative to two (assumed).
const ONE_CONSUMER_EFFICIENCY: f64 = 0.85;
/// A multicast pair's k-tile time over a lone CTA's. The pair runs its ring in lockstep: a stage is refilled only
/// when both CTAs' consumers have freed it, and lands when both halves of W have arrived, so every k-tile waits
/// for the slower SM of two. The fitted k-tile time and copy round trip are the shipped (paired) kernel's; a lone
/// CTA's k-tile takes them over this. Fitted: the geometric mean of the pair's time over the lone CTA's, same tile
/// and order, interleaved rounds, on the bf16 LLM layers at M = 512 and 2048 (12 shapes, H100, 2026-11-25: 1.001
/// to 1.070, the pair slower on all 12); the fp16 half held out (the pair slower on 10 of 12, geomean 1.008).
pub const MULTICAST_PAIR_COST: f64 = 1.022;
/// Block-steps (tiles x k-tiles) the L2 simulation may run per variant; larger problems are simulated on a
/// band of rows and scaled (group-m orders repeat per band).
const L2_SIM_STEPS: u64 = 1 << 21;

/// One candidate kernel configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Tile rows (64: one consumer warpgroup; 128: two).
    pub bm: u32,
    /// Tile columns.
    pub bn: u32,
    /// K per pipeline stage.
    pub bk: u32,
    /// Shared-memory ring depth.
    pub stages: u32,
    /// CTAs per cluster along M (2: the pair multicasts the W tile).
    pub cluster: u32,
    /// K split into this many parts (1: no split).
    pub split: u32,
    /// Stream-K: the persistent grid deals out k-tiles instead of whole tiles, every SM gets the same number of
    /// k-tile iterations, and a tile cut between two SMs is finished by the one that owns its last k-tiles,
    /// which adds the other's fp32 partial in k order (deterministic). Only with `split == 1`.
    pub stream_k: bool,
    /// Compute `Cᵀ = W · Xᵀ`: the grid's rows run over N, its columns over M.
    pub swap: bool,
    /// The block order over the tile grid.
    pub order: Raster,
}

impl Variant {
    /// The shipped Hopper kernel: 128x256x64, 4 stages, clusters of 2, group-m 8.
    pub const SHIPPED: Variant = Variant {
        bm: 128,
        bn: 256,
        bk: BK,
        stages: 4,
        cluster: 2,
        split: 1,
        stream_k: false,
        swap: false,
        order: Raster::GroupM { group: 8 },
    };

    /// The kernel shape: the variant without its block order (tile, cluster, split, stream-K, swap). Variants of
    /// one shape run alike, so reports list one per shape.
    pub const fn shape(&self) -> (u32, u32, u32, u32, bool, bool) {
        (
            self.bm,
            self.bn,
            self.cluster,
            self.split,
            self.stream_k,
            self.swap,
        )
    }

    /// Consumer warpgroups (64 rows each).
    pub const fn consumers(&self) -> u32 {
        self.bm / 64
    }

    /// Bytes of one pipeline stage: the X and W tiles.
    pub const fn stage_bytes(&self, elem: Elem) -> u32 {
        (self.bm + self.bn) * self.bk * elem.bytes()
    }

    /// The shared memory the Hopper kernel lays out for this variant: its tiles in the kernel's 128-byte swizzle,
    /// the ring, the epilogue scratch of every consumer warp (4 per consumer warpgroup), the split's partial.
    pub const fn smem(&self, e: Elem) -> GemmSmem {
        GemmSmem {
            a: OperandTile::new(ByteMode::Sw128, e, Major::K, self.bm, self.bk),
            b: OperandTile::new(ByteMode::Sw128, e, Major::K, self.bn, self.bk),
            stages: self.stages,
            epilogue_warps: 4 * self.consumers(),
            epilogue_tile: epilogue_tile(e),
            split: self.split > 1,
        }
    }

    /// Bytes of [`Variant::smem`].
    pub const fn smem_bytes(&self, elem: Elem) -> u32 {
        self.smem(elem).bytes()
    }

    /// The deepest ring (at most [`MAX_STAGES`]) that fits `smem` bytes, or `None` below 2 stages.
    pub const fn stages_for(bm: u32, bn: u32, elem: Elem, smem: u32) -> Option<u32> {
        Variant::stages_for_split(bm, bn, 1, elem, smem)
    }

    /// [`Variant::stages_for`] with `split` parts (a split keeps its partial tile in shared memory too).
    pub const fn stages_for_split(
        bm: u32,
        bn: u32,
        split: u32,
        elem: Elem,
        smem: u32,
    ) -> Option<u32> {
        let mut v = Variant {
            bm,
            bn,
            split,
            stages: MAX_STAGES,
            ..Variant::SHIPPED
        };
        while v.stages >= 2 {
            if v.smem_bytes(elem) <= smem {
                return Some(v.stages);
            }
            v.stages -= 1;
        }
        None
    }

    /// What the Hopper kernel implements today: one or two consumer warpgroups (64- or 128-row tiles), every N
    /// tile of [`BNS`], clusters of 1 or 2, split-K up to [`MAX_SPLIT`] parts (without the multicast pair), any
    /// block order; no stream-K, no swap.
    pub const fn implemented(&self) -> bool {
        (self.bm == 64 || self.bm == 128)
            && matches!(self.bn, 32 | 64 | 96 | 128 | 160 | 192 | 224 | 256)
            && self.split <= MAX_SPLIT
            && (self.split == 1 || self.cluster == 1)
            && !self.stream_k
            && !self.swap
    }

    /// The k-tile rate relative to the shipped 128x256 mainloop, per output. Two effects:
    /// - **Shared-memory feed.** Per k16 step a consumer warpgroup's wgmma reads `64 x 16` of X and `BN x 16` of
    ///   W from shared memory, `2048 + 32 BN` bytes, against `BN / 2` cycles of tensor work. At
    ///   [`SMEM_FEED_BYTES_PER_CYCLE`] the feed keeps up at BN = 256 and not below: BN = 128 runs at 93% (the
    ///   measured 128x128 vs 128x256 ratio this rate is fitted on), 64 at 70%, 32 at 46%.
    /// - **One consumer warpgroup** (64-row tiles) runs at the private constant `ONE_CONSUMER_EFFICIENCY` times the rate of two (assumed, not measured).
    pub fn efficiency(&self) -> f64 {
        let warpgroups = if self.consumers() == 1 {
            ONE_CONSUMER_EFFICIENCY
        } else {
            1.0
        };
        let bn = self.bn as f64;
        let feed_cycles = (2048.0 + 32.0 * bn) / SMEM_FEED_BYTES_PER_CYCLE;
        warpgroups * (bn / 2.0 / feed_cycles).min(1.0)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{}x{} {}st cluster{} {} {}{}",
            self.bm,
            self.bn,
            self.bk,
            self.stages,
            self.cluster,
            if self.stream_k {
                "stream-k".to_string()
            } else {
                format!("split{}", self.split)
            },
            self.order,
            if self.swap { " swap" } else { "" }
        )
    }
}

/// What set a variant's predicted time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Tensor work, evenly spread.
    Tensor,
    /// Tensor work of the busiest SM, over 10% above the even share: too few or uneven work units.
    Waves,
    /// The copy round trip: the ring's stages cannot hide it (the k-tiles are too small).
    Latency,
    /// L2 -> SM bytes.
    L2,
    /// DRAM bytes (X, W reads through the order's L2 reuse; C written).
    Hbm,
}

impl Bound {
    /// What the CLI prints (`tensor throughput`, `HBM bytes`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Bound::Tensor => "tensor throughput",
            Bound::Waves => "wave quantization",
            Bound::Latency => "copy latency",
            Bound::L2 => "L2 traffic",
            Bound::Hbm => "HBM bytes",
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant's predicted time and its parts, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The candidate.
    pub variant: Variant,
    /// Predicted wall time.
    pub time_s: f64,
    /// The term that sets `time_s`.
    pub bound: Bound,
    /// The busiest SM's tensor time.
    pub tensor_s: f64,
    /// The tensor time if the units spread perfectly.
    pub tensor_even_s: f64,
    /// L2 -> SM bytes over the L2 read rate.
    pub l2_s: f64,
    /// DRAM bytes (read and written) over the copy rate.
    pub hbm_s: f64,
    /// The split reduction (0 without split).
    pub reduce_s: f64,
    /// Work units (tiles x splits) and the slots (SMs or SM pairs) they are dealt to.
    pub units: u64,
    /// See `units`.
    pub slots: u64,
    /// DRAM bytes read (the L2 model) and written.
    pub dram_read_bytes: u64,
    /// See `dram_read_bytes`.
    pub dram_write_bytes: u64,
}

impl Estimate {
    /// The predicted rate on `p`, TFLOP/s.
    pub fn tflops(&self, p: &Problem) -> f64 {
        p.flops() / self.time_s / 1e12
    }
}

/// A plan: the fastest variant, and every other candidate, fastest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// What was planned.
    pub problem: Problem,
    /// The fastest candidate.
    pub best: Estimate,
    /// Every other candidate, fastest first.
    pub runners_up: Vec<Estimate>,
}

impl Plan {
    /// The best estimate, then the runners-up one per kernel shape ([`Variant::shape`]), each shape at its
    /// fastest block order, fastest first: what a report lists as the plan and its alternatives.
    pub fn by_shape(&self) -> Vec<&Estimate> {
        let mut out: Vec<&Estimate> = Vec::new();
        for e in std::iter::once(&self.best).chain(&self.runners_up) {
            if !out.iter().any(|o| o.variant.shape() == e.variant.shape()) {
                out.push(e);
            }
        }
        out
    }
}

/// Which candidates to consider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restrict {
    /// Every variant the model knows, built or not.
    All,
    /// Only what the Hopper kernel implements today ([`Variant::implemented`]).
    Implemented,
}

/// The sizes the Hopper kernel takes (what the planner plans and every launch checks): no extent 0, and K a
/// multiple of 8, so that the rows of X and W (16-bit elements) are 16-byte aligned for the copy engine.
///
/// ```
/// use swizzle_core::plan::{check, PlanError};
/// use swizzle_core::Size;
/// assert_eq!(check(Size::mnk(16, 4096, 4096)), Ok(()));
/// assert_eq!(check(Size::mnk(16, 4096, 4095)), Err(PlanError::KNotMultipleOf8(4095)));
/// assert_eq!(check(Size::mnk(0, 8, 8)), Err(PlanError::Zero("M")));
/// ```
pub fn check(size: Size) -> Result<(), PlanError> {
    for (v, what) in [(size.m, "M"), (size.n, "N"), (size.k, "K")] {
        if v == 0 {
            return Err(PlanError::Zero(what));
        }
    }
    if !size.k.is_multiple_of(8) {
        return Err(PlanError::KNotMultipleOf8(size.k));
    }
    Ok(())
}

/// Every candidate for `p` on `dev`: tiles x clusters x (splits dividing the k-tiles, at least 4 k-tiles per
/// split, or stream-K) x orders x swap (only when M < N), each with the deepest ring that fits.
pub fn candidates(p: &Problem, dev: &Device, restrict: Restrict) -> Vec<Variant> {
    let k_tiles = p.size.k.div_ceil(BK);
    let mut out = Vec::new();
    for swap in [false, true] {
        if swap && p.size.m >= p.size.n {
            continue;
        }
        for bm in BMS {
            for bn in BNS {
                for cluster in [1, 2] {
                    let splits = SPLITS.iter().map(|&s| (s, false));
                    for (split, stream_k) in splits.chain([(1, true)]) {
                        if !k_tiles.is_multiple_of(split) || (split > 1 && k_tiles / split < 4) {
                            continue;
                        }
                        let Some(stages) =
                            Variant::stages_for_split(bm, bn, split, p.elem, dev.smem_per_block)
                        else {
                            continue;
                        };
                        for order in ORDERS {
                            let v = Variant {
                                bm,
                                bn,
                                bk: BK,
                                stages,
                                cluster,
                                split,
                                stream_k,
                                swap,
                                order,
                            };
                            if restrict == Restrict::All || v.implemented() {
                                out.push(v);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The grid's (rows, columns, K) for a variant: swapped, rows run over N.
fn oriented(p: &Problem, v: &Variant) -> (u32, u32) {
    if v.swap {
        (p.size.n, p.size.m)
    } else {
        (p.size.m, p.size.n)
    }
}

/// DRAM bytes the variant's X and W reads cost, from the L2 model under its order; large problems are simulated
/// on a band of whole order groups and scaled by rows.
pub fn dram_read_bytes(p: &Problem, dev: &Device, v: &Variant) -> u64 {
    let (rows, cols) = oriented(p, v);
    let k_tiles = p.size.k.div_ceil(v.bk) as u64;
    let (tm, tn) = (rows.div_ceil(v.bm) as u64, cols.div_ceil(v.bn) as u64);
    let group = match v.order {
        Raster::GroupM { group } => group as u64,
        _ => 1,
    };
    let band_tiles = if tm * tn * k_tiles <= L2_SIM_STEPS {
        tm
    } else {
        let per_row = tn * k_tiles;
        ((L2_SIM_STEPS / per_row.max(1)) / group * group).clamp(group.min(tm), tm)
    };
    let band_rows = if band_tiles == tm {
        rows
    } else {
        (band_tiles * v.bm as u64) as u32
    };
    let cfg = L2Config {
        gemm: Size::mnk(band_rows, cols, p.size.k),
        tile: BlockTile::new(v.bm, v.bn, v.bk),
        elem_bytes: p.elem.bytes(),
        raster: v.order,
        machine: dev.l2,
        // A persistent grid: every CTA starts at once and its tiles take the same time, so the running tiles
        // stay in step (the tiled matmul's blocks, launched and retired by the hardware, drift apart instead).
        schedule: l2::Schedule::LOCKSTEP,
    };
    let compulsory = (rows as u64 + cols as u64) * p.size.k as u64 * p.elem.bytes() as u64;
    match l2::predict(&cfg) {
        // The band reads its X rows and all of W; the rest of X adds its rows, W comes back once per band.
        Ok(pr) if band_rows == rows => pr.dram_read_bytes,
        Ok(pr) => (pr.dram_read_bytes as f64 * rows as f64 / band_rows as f64) as u64,
        Err(_) => compulsory,
    }
    .max(compulsory)
}

/// Predict one variant's time (module docs). `dram_read` is [`dram_read_bytes`] for it (the slow part; the
/// planner shares it between variants that differ only in cluster or split).
pub fn estimate_with(p: &Problem, dev: &Device, v: &Variant, dram_read: u64) -> Estimate {
    let (rows, cols) = oriented(p, v);
    let e = p.elem.bytes() as u64 as f64;
    let k_tiles = p.size.k.div_ceil(v.bk) as u64;
    let (tm, tn) = (rows.div_ceil(v.bm) as u64, cols.div_ceil(v.bn) as u64);
    let split = v.split as u64;
    let cluster = v.cluster as u64;
    // 1. Tensor, with waves: units per slot (an SM, or an SM pair for clusters).
    let units = tm.div_ceil(cluster) * tn * split;
    let slots = dev.sms as u64 / cluster;
    let area = (v.bm * v.bn) as f64 / (128.0 * 256.0);
    let lone = if cluster == 1 {
        1.0 / MULTICAST_PAIR_COST
    } else {
        1.0
    };
    let t_mma = dev.k_tile_s * area / v.efficiency() * lone;
    let t_k = t_mma.max(LOAD_LATENCY_S / v.stages as f64 * lone);
    // Fill and epilogue, half each of the measured overhead; a split part's epilogue is the reduction (4.).
    let epilogue = if split > 1 {
        0.0
    } else {
        0.5 * dev.tile_overhead_s * area
    };
    let t_unit = (k_tiles / split) as f64 * t_k + 0.5 * dev.tile_overhead_s + epilogue;
    let (tensor_s, tensor_even_s) = if v.stream_k {
        // Every slot runs ceil(units x k_tiles / slots) k-tiles and at most one tile more than its whole share;
        // a slot whose range cuts a tile writes (or reads and adds) one fp32 partial through L2.
        let iters = units * k_tiles;
        let overhead = 0.5 * dev.tile_overhead_s + epilogue;
        let cut = !iters.is_multiple_of(slots) || !units.is_multiple_of(slots);
        let fixup = if cut {
            2.0 * (v.bm * v.bn) as f64 * 4.0 * cluster as f64
                / (dev.l2_bytes_per_s / dev.sms as f64)
        } else {
            0.0
        };
        (
            iters.div_ceil(slots) as f64 * t_k
                + (units.div_ceil(slots) + cut as u64) as f64 * overhead
                + fixup,
            iters as f64 / slots as f64 * t_k + units as f64 / slots as f64 * overhead,
        )
    } else {
        (
            units.div_ceil(slots) as f64 * t_unit,
            units as f64 / slots as f64 * t_unit,
        )
    };
    // 2. L2 -> SM: X tile per CTA, W tile once per cluster.
    let ctas = tm.div_ceil(cluster) * cluster * tn * split;
    let l2_bytes = ctas as f64
        * (k_tiles / split) as f64
        * v.bk as f64
        * e
        * (v.bm as f64 + v.bn as f64 / cluster as f64);
    let l2_s = l2_bytes / dev.l2_bytes_per_s;
    // 3. HBM: reads through the L2 model, C written once (split partials stay in shared memory).
    let c_bytes = p.size.m as u64 * p.size.n as u64 * p.elem.bytes() as u64;
    let dram_write = c_bytes;
    let hbm_s = (dram_read + dram_write) as f64 / dev.hbm_bytes_per_s + HBM_RAMP_S;
    // 4. The split reduction, once per unit of the busiest SM.
    let reduce_s = if split > 1 {
        units.div_ceil(slots) as f64 * split as f64 * SPLIT_PART_S
    } else {
        0.0
    };
    let (mut time, mut bound) = (tensor_s, Bound::Tensor);
    if t_k > t_mma {
        bound = Bound::Latency;
    } else if tensor_s > 1.1 * tensor_even_s {
        bound = Bound::Waves;
    }
    for (t, b) in [(l2_s, Bound::L2), (hbm_s, Bound::Hbm)] {
        if t > time {
            (time, bound) = (t, b);
        }
    }
    Estimate {
        variant: *v,
        time_s: time + reduce_s,
        bound,
        tensor_s,
        tensor_even_s,
        l2_s,
        hbm_s,
        reduce_s,
        units,
        slots,
        dram_read_bytes: dram_read,
        dram_write_bytes: dram_write,
    }
}

/// Predict one variant's time, running the L2 model for it.
pub fn estimate(p: &Problem, dev: &Device, v: &Variant) -> Result<Estimate, PlanError> {
    check(p.size)?;
    Ok(estimate_with(p, dev, v, dram_read_bytes(p, dev, v)))
}

/// Plan `p` on `dev`: every candidate's estimate, fastest first. The L2 model runs once per distinct
/// (tile, order, swap), and only for candidates whose estimate with compulsory DRAM reads (a lower bound) could
/// still beat the best found so far. The order is deterministic (ties: see the sort below).
pub fn plan(p: &Problem, dev: &Device, restrict: Restrict) -> Result<Plan, PlanError> {
    check(p.size)?;
    let cands = candidates(p, dev, restrict);
    let mut lower: Vec<(Estimate, usize)> = cands
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let (rows, cols) = oriented(p, v);
            let compulsory = (rows as u64 + cols as u64) * p.size.k as u64 * p.elem.bytes() as u64;
            (estimate_with(p, dev, v, compulsory), i)
        })
        .collect();
    lower.sort_by(|a, b| a.0.time_s.total_cmp(&b.0.time_s).then(a.1.cmp(&b.1)));
    let mut cache: Vec<((u32, u32, bool, Raster), u64)> = Vec::new();
    let mut best = f64::INFINITY;
    let mut done: Vec<(Estimate, usize)> = Vec::with_capacity(lower.len());
    for (lb, i) in lower {
        let v = lb.variant;
        if lb.time_s > best {
            // Its L2 traffic cannot make it faster: keep the lower bound, it loses anyway.
            done.push((lb, i));
            continue;
        }
        let key = (v.bm, v.bn, v.swap, v.order);
        let dram = match cache.iter().find(|(k, _)| *k == key) {
            Some(&(_, d)) => d,
            None => {
                let d = dram_read_bytes(p, dev, &v);
                cache.push((key, d));
                d
            }
        };
        let est = estimate_with(p, dev, &v, dram);
        best = best.min(est.time_s);
        done.push((est, i));
    }
    // Ties (the same binding term) go to the implemented variant, then to the lone CTA over the multicast pair
    // (the pair's ring waits for the slower of its SMs, [`MULTICAST_PAIR_COST`], whatever binds), then to the one
    // with the most headroom on the other terms, then to the candidate listed first.
    let headroom = |e: &Estimate| e.tensor_s + e.l2_s + e.hbm_s + e.reduce_s;
    done.sort_by(|a, b| {
        a.0.time_s
            .total_cmp(&b.0.time_s)
            .then(b.0.variant.implemented().cmp(&a.0.variant.implemented()))
            .then(a.0.variant.cluster.cmp(&b.0.variant.cluster))
            .then(headroom(&a.0).total_cmp(&headroom(&b.0)))
            .then(a.1.cmp(&b.1))
    });
    let mut all = done.into_iter().map(|(e, _)| e);
    let best = all.next().ok_or(PlanError::NoCandidate)?;
    Ok(Plan {
        problem: *p,
        best,
        runners_up: all.collect(),
    })
}

/// Why `loser` is slower than `winner`, in a few words: the term that grew most.
pub fn why_slower(winner: &Estimate, loser: &Estimate) -> String {
    let terms = [
        ("tensor/waves", loser.tensor_s - winner.tensor_s),
        ("L2 traffic", loser.l2_s - winner.l2_s),
        ("HBM bytes", loser.hbm_s - winner.hbm_s),
        ("split reduction", loser.reduce_s - winner.reduce_s),
    ];
    let (what, _) = terms
        .iter()
        .copied()
        .fold(("tie", 0.0), |acc, t| if t.1 > acc.1 { t } else { acc });
    format!(
        "+{:.1}% ({}; bound: {})",
        100.0 * (loser.time_s / winner.time_s - 1.0),
        what,
        loser.bound
    )
}

/// The grid a variant launches for `p`, as tiles (x along the grid's columns).
pub fn tile_grid(p: &Problem, v: &Variant) -> Grid {
    let (rows, cols) = oriented(p, v);
    Grid::new(cols.div_ceil(v.bn), rows.div_ceil(v.bm))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bf16(m: u32, n: u32, k: u32) -> Problem {
        Problem::new(Size::mnk(m, n, k), Elem::BF16)
    }

    /// The calibration points: the shipped kernel's measured rates (BENCHMARKS.md, H100 bf16).
    #[test]
    fn shipped_kernel_matches_its_measurements() {
        let d = Device::H100;
        for (p, tflops, fitted) in [
            (bf16(8192, 8192, 8192), 807.0, true),
            (bf16(16384, 16384, 1024), 720.0, true),
            (bf16(4096, 4096, 4096), 778.0, false),
            // The layer table: M=16, N=K=4096 at 34.5% of cuBLAS's 36 TFLOP/s.
            (bf16(16, 4096, 4096), 36.0 * 0.345, false),
        ] {
            let e = estimate(&p, &d, &Variant::SHIPPED).unwrap();
            let err = e.tflops(&p) / tflops - 1.0;
            let tol = if fitted { 0.01 } else { 0.05 };
            assert!(
                err.abs() < tol,
                "{p:?}: {:.1} vs {tflops} ({err:+.3})",
                e.tflops(&p)
            );
        }
    }

    #[test]
    fn stages_fill_the_shared_memory() {
        let smem = Device::H100.smem_per_block;
        assert_eq!(Variant::stages_for(128, 256, Elem::BF16, smem), Some(4));
        assert_eq!(Variant::stages_for(128, 128, Elem::BF16, smem), Some(6));
        // 64x64: 16 KiB stages beside 8 KiB of epilogue scratch; 64x32 would take 17 and stops at the cap.
        assert_eq!(Variant::stages_for(64, 64, Elem::BF16, smem), Some(13));
        assert_eq!(
            Variant::stages_for(64, 32, Elem::BF16, smem),
            Some(MAX_STAGES)
        );
        assert_eq!(Variant::stages_for(128, 256, Elem::BF16, 64 << 10), None);
        // The widths between: a stage of 128 x BN is (128 + BN) x 128 bytes, beside 17.5 KiB of epilogue
        // scratch, barriers and alignment in 227 KiB.
        for (bn, stages) in [(96, 7), (160, 5), (192, 5), (224, 4)] {
            assert_eq!(
                Variant::stages_for(128, bn, Elem::BF16, smem),
                Some(stages),
                "128x{bn}"
            );
        }
        // A split keeps its fp32 partial: 128x224 has room for 2 stages beside its 112 KiB, 128x256 for none.
        assert_eq!(
            Variant::stages_for_split(128, 224, 2, Elem::BF16, smem),
            Some(2)
        );
        assert_eq!(
            Variant::stages_for_split(128, 256, 2, Elem::BF16, smem),
            None
        );
    }

    /// The shared-memory feed: the per-output rate grows with BN up to the width where the feed keeps up
    /// (BN = 164 at the fitted rate) and stays at 1 above it.
    #[test]
    fn efficiency_grows_with_the_tile_width_up_to_the_feed() {
        let eff = |bm, bn| {
            Variant {
                bm,
                bn,
                ..Variant::SHIPPED
            }
            .efficiency()
        };
        for bm in BMS {
            for w in BNS.windows(2) {
                assert!(eff(bm, w[0]) <= eff(bm, w[1]), "{bm}x{} vs {}", w[0], w[1]);
            }
        }
        assert!(eff(128, 160) > 0.99 && eff(128, 160) < 1.0);
        assert_eq!(
            (eff(128, 192), eff(128, 224), eff(128, 256)),
            (1.0, 1.0, 1.0)
        );
        assert!((eff(128, 128) - 0.93).abs() < 0.01);
        assert!((eff(64, 256) - ONE_CONSUMER_EFFICIENCY).abs() < 1e-12);
    }

    /// The multicast pair waits for the slower of its SMs: where the pair saves no wave and the L2 traffic it
    /// halves binds nothing, the lone CTA is planned, and the pair of the same tile is predicted slower.
    #[test]
    fn the_lone_cta_is_planned_where_the_pair_saves_nothing() {
        let d = Device::H100;
        for (m, n, k) in [(512, 6144, 4096), (2048, 4096, 4096), (8192, 8192, 8192)] {
            let p = bf16(m, n, k);
            let best = plan(&p, &d, Restrict::Implemented).unwrap().best;
            assert_eq!(best.variant.cluster, 1, "{p:?}: {}", best.variant);
            let pair = Variant {
                cluster: 2,
                ..best.variant
            };
            let pair = estimate(&p, &d, &pair).unwrap();
            assert!(pair.time_s > best.time_s * 1.01, "{p:?}: {}", pair.variant);
            assert!(pair.l2_s < best.l2_s, "{p:?}");
        }
    }

    /// Where a width between the powers of two cuts a layer's tiles to whole waves at M = 512, the plan takes it:
    /// 8B qkv (N = 6144: 128x256 is 96 tiles on 132 SMs, 128x192 is 128) and 70B qkv (N = 10240: 128x256 is 160
    /// tiles, 1.2 waves; 128x160 is 256, 1.94 waves). The pick runs in at most the waves of the SMs it needs and
    /// is predicted over 15% faster than the shipped 128x256.
    #[test]
    fn widths_between_powers_of_two_cut_the_waves_at_m_512() {
        let d = Device::H100;
        for (n, k, bn) in [(6144, 4096, 192), (10240, 8192, 160)] {
            let p = bf16(512, n, k);
            let best = plan(&p, &d, Restrict::Implemented).unwrap().best;
            assert_eq!(best.variant.bn, bn, "{p:?}: {}", best.variant);
            let waves = best.units as f64 / best.slots as f64;
            assert!(waves.ceil() - waves < 0.1, "{p:?}: {waves:.2} waves");
            let shipped = estimate(&p, &d, &Variant::SHIPPED).unwrap();
            assert!(best.time_s * 1.15 < shipped.time_s, "{p:?}");
        }
    }

    #[test]
    fn bad_problems_are_errors() {
        let d = Device::H100;
        assert_eq!(
            plan(&bf16(0, 8, 8), &d, Restrict::All),
            Err(PlanError::Zero("M"))
        );
        assert_eq!(
            plan(&bf16(8, 8, 12), &d, Restrict::All),
            Err(PlanError::KNotMultipleOf8(12))
        );
    }

    /// Over a grid of shapes (ragged, tiny, skinny, large K): the plan is valid (ring fits, split divides the
    /// k-tiles), every prediction is positive and at least the HBM floor, and the best is no slower than any
    /// runner-up; restricted to implemented variants, the pick is implemented and never faster than the free
    /// pick.
    #[test]
    fn plans_are_valid_on_a_grid_of_shapes() {
        let d = Device::H100;
        for m in [1, 3, 16, 17, 128, 1000, 4096] {
            for n in [8, 200, 4096, 28672] {
                for k in [8, 64, 520, 4096] {
                    let p = bf16(m, n, k);
                    let all = plan(&p, &d, Restrict::All).unwrap();
                    let imp = plan(&p, &d, Restrict::Implemented).unwrap();
                    assert!(imp.best.variant.implemented(), "{p:?}");
                    assert!(all.best.time_s <= imp.best.time_s * (1.0 + 1e-12), "{p:?}");
                    let floor = p.min_bytes() as f64 / d.hbm_bytes_per_s;
                    for e in std::iter::once(&all.best).chain(&all.runners_up) {
                        let v = e.variant;
                        assert!(v.smem_bytes(p.elem) <= d.smem_per_block, "{v}");
                        assert!(v.stages >= 2, "{v}");
                        assert!(p.size.k.div_ceil(BK).is_multiple_of(v.split), "{v}");
                        assert!(e.time_s > 0.0 && e.time_s.is_finite(), "{p:?} {v}");
                        assert!(e.time_s >= floor * (1.0 - 1e-9), "{p:?} {v}");
                        assert!(e.time_s >= all.best.time_s, "{p:?} {v}");
                    }
                }
            }
        }
    }

    /// More work never plans faster: doubling M, N or K does not lower the best predicted time.
    #[test]
    fn more_work_is_not_faster() {
        let d = Device::H100;
        for (m, n, k) in [
            (16, 4096, 4096),
            (128, 6144, 4096),
            (512, 4096, 14336),
            (2048, 1024, 1024),
        ] {
            let t = |m, n, k| plan(&bf16(m, n, k), &d, Restrict::All).unwrap().best.time_s;
            let base = t(m, n, k);
            for (a, b, c) in [(2 * m, n, k), (m, 2 * n, k), (m, n, 2 * k)] {
                assert!(t(a, b, c) >= base * 0.999, "{m}x{n}x{k} -> {a}x{b}x{c}");
            }
        }
    }

    /// Decode shapes are bound by HBM once split or swapped: the free pick at M=16 beats the shipped kernel by
    /// over 2x and lands within 1.5x of the HBM floor; the shipped kernel there is wave-bound (16 CTAs).
    #[test]
    fn tiny_m_plans_reach_the_hbm_roofline() {
        let d = Device::H100;
        let p = bf16(16, 4096, 4096);
        let shipped = estimate(&p, &d, &Variant::SHIPPED).unwrap();
        assert_eq!(shipped.bound, Bound::Waves);
        let best = plan(&p, &d, Restrict::All).unwrap().best;
        assert!(best.time_s * 2.0 < shipped.time_s, "{}", best.variant);
        let floor = p.min_bytes() as f64 / d.hbm_bytes_per_s + HBM_RAMP_S;
        assert!(
            best.time_s < 1.5 * floor,
            "{} {:.2e} vs {floor:.2e}",
            best.variant,
            best.time_s
        );
        // The H200's faster HBM makes the same decode faster.
        let h200 = plan(&p, &Device::H200, Restrict::All).unwrap().best;
        assert!(h200.time_s < best.time_s);
    }
}
