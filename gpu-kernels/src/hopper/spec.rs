//! The Hopper GEMM's spec: element type, block shape, ring depth, register split, smem byte mode and block raster.
//! Everything the `.cu` needs is rendered from it: swizzle-core's header (operand tiles `GemmA` / `GemmB`, raster
//! `TileOrder`) and `gemm_spec.cuh` (constants and the `wgmma` wrapper, generated for the tile's N).

use crate::frame::{Arg, Launch, Size};
use crate::runtime::{Error, Header, Result, Source};
use cudarc::driver::LaunchConfig;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::raster::Raster;
use swizzle_core::scale::ScaleMode;
use swizzle_core::wgmma::{GemmSmem, Major, OperandTile};
use swizzle_core::{ByteMode, Elem};

/// One kernel variant. Variants differ only here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HopperSpec {
    /// Input type: bf16 or f16 ([`super::TYPES`], the output the same), or e4m3 (bf16 output,
    /// [`HopperSpec::out_ty`]); fp32 accumulation.
    pub ty: Elem,
    /// e4m3: how the fp32 scales apply ([`ScaleMode`]; per tensor and per row in the epilogue, per block by
    /// promoting each K block's partial sum). 16-bit specs take no scales and keep [`ScaleMode::Tensor`].
    pub scale: ScaleMode,
    /// Consumer warpgroups; each owns 64 rows, so the block tile is `64 * consumers` x `bn`.
    pub consumers: u32,
    /// Block tile N = the wgmma instruction's N (m64nBNk16).
    pub bn: u32,
    /// K per stage.
    pub bk: u32,
    pub stages: u32,
    /// The smem byte mode TMA writes and wgmma reads.
    pub mode: ByteMode,
    /// The persistent grid's tile order.
    pub raster: Raster,
    /// wgmma groups a consumer keeps in flight while waiting (0: wait for each k-block; 1: overlap the next).
    pub inflight: u32,
    pub producer_regs: u32,
    pub consumer_regs: u32,
    /// CTAs per cluster along M (1 or 2). With 2, the pair computes vertically adjacent tiles that share the
    /// B tile: each CTA loads half of it and the copy engine multicasts it to both.
    pub cluster: u32,
    /// Epilogue stores: 16 bytes per thread (a 4x4 word transpose inside each lane quad first) or the
    /// accumulator layout's own 4-byte pairs.
    pub store16: bool,
    /// Epilogue through shared memory: each consumer warp writes its 16-row slice 64 columns at a time with
    /// `stmatrix` into its own [`HopperSpec::epilogue_tile`] and reads it back as 16-byte rows for 16-byte global
    /// stores (instead of the register quad transpose of `store16`).
    pub smem_epilogue: bool,
    /// Split-K: a cluster of `split` CTAs computes each tile, CTA `r` over the `r`-th of `split` balanced parts of
    /// the K loop; CTA `r` then adds its share of the tile's fp32 partials in part order 0..split over
    /// distributed shared memory (the same bits every run) and writes it. 1: no split. Needs `cluster == 1`.
    pub split: u32,
    /// e4m3: C's element type, bf16, f16 or f32 ([`HopperSpec::out_ty`]; f32 is stored from the accumulator
    /// fragments, 8 bytes per thread). 16-bit specs write their input type and keep bf16 here.
    pub fp8_out: Elem,
    /// Block scaling: the K-block accumulators a consumer alternates between. 1: each K block's `wgmma`s are
    /// waited for (`wgmma.wait_group 0`) before their promotion; 2: the next K block's `wgmma`s are issued into
    /// the other accumulator first, and the promotion waits only for the older group (`wait_group 1`), so the
    /// tensor core runs while the fp32 sum is updated.
    pub block_accs: u32,
    /// Block scaling with one K-block accumulator of half the tile's width: each K block's `wgmma`s as two N
    /// halves (m64n`bn/2`) in turn, the first waited for and promoted before the second is issued into the same
    /// registers, for A's slice read twice per k step. What lets a tile wider than 192 keep its fp32 sum and a
    /// K-block accumulator in the registers (128x256: 128 + 64 + 40); the planner's block-scaled specs take it
    /// where a whole-width accumulator does not fit ([`with_block_promotion`](Self::with_block_promotion)).
    pub promote_halves: bool,
    /// The tail split (a lone unsplit CTA): each launch cuts the last tiles of the persistent schedule into parts
    /// of their K loop, [`swizzle_core::tail::split`]'s for the problem on the launch's grid, whose fp32 partials
    /// meet in a global workspace the launch provides ([`HopperGemm::launch`](super::HopperGemm::launch),
    /// [`HopperGemm::launch_fp8`](super::HopperGemm::launch_fp8)); a problem without a tail to split runs as
    /// without it.
    pub tail: bool,
}

/// The single-CTA configuration every tuning variant differs from by one thing (`hopper::sweep`): 128x256x64
/// block tile, 4-stage ring, 128B swizzle, GroupM(8) order, one wgmma group kept in flight, registers 40/232.
pub const BASE: HopperSpec = HopperSpec {
    ty: Elem::BF16,
    scale: ScaleMode::Tensor,
    consumers: 2,
    bn: 256,
    bk: 64,
    stages: 4,
    mode: ByteMode::Sw128,
    raster: Raster::GroupM { group: 8 },
    inflight: 1,
    producer_regs: 40,
    consumer_regs: swizzle_core::plan::CONSUMER_REGS,
    cluster: 1,
    store16: true,
    smem_epilogue: false,
    split: 1,
    fp8_out: Elem::BF16,
    block_accs: 2,
    promote_halves: false,
    tail: false,
};

/// [`BASE`] with clusters of two CTAs sharing (multicasting) the B tile: shipped before the stmatrix epilogue.
pub const CLUSTER2: HopperSpec = HopperSpec { cluster: 2, ..BASE };

/// The shipped configuration: [`CLUSTER2`] with the epilogue through shared memory (stmatrix). In interleaved
/// rounds against cuBLAS (BENCHMARKS.md, Hopper GEMM) it beat [`CLUSTER2`] and [`BASE`] at 4096^3 by 4-5 points
/// in every round and at 8192^3 by 3-4 points (median).
pub const SHIPPED: HopperSpec = HopperSpec {
    smem_epilogue: true,
    ..CLUSTER2
};

// The epilogue scratch's two accesses (stmatrix.x4 writes, 16-byte row reads) are conflict-free, checked at
// compile time for both output types (fp16 and bf16 share the layout).
swizzle_core::assert_conflict_free!(BASE.epilogue_tile(), Pattern::STMATRIX_X4, Pattern::ROW16);

/// Threads per warpgroup.
pub const WARPGROUP: u32 = 128;
/// The most split-K parts: one portable cluster (8 CTAs) per tile.
pub const MAX_SPLIT: u32 = 8;
/// Registers per SM (the producer / consumer split must fit).
const SM_REGS: u32 = 65536;

impl HopperSpec {
    /// The same spec in `ty`, with the same bytes of K per stage (64 bf16 = 128 e4m3 = one 128-byte row).
    pub const fn with_ty(self, ty: Elem) -> HopperSpec {
        HopperSpec {
            ty,
            bk: self.bk * self.ty.bytes() / ty.bytes(),
            ..self
        }
    }
    /// The same spec with `scale`'s scaling (e4m3).
    pub const fn with_scale(self, scale: ScaleMode) -> HopperSpec {
        HopperSpec { scale, ..self }
    }
    /// The same spec writing C in `out` (e4m3: bf16, f16 or f32).
    pub const fn with_out(self, out: Elem) -> HopperSpec {
        HopperSpec {
            fp8_out: out,
            ..self
        }
    }
    /// C's element type: the input type for 16-bit inputs, [`HopperSpec::fp8_out`] for e4m3.
    pub const fn out_ty(&self) -> Elem {
        if self.ty.bytes() == 1 {
            self.fp8_out
        } else {
            self.ty
        }
    }
    /// True for the FP8 (e4m3) kernel, which takes scale buffers.
    pub const fn is_fp8(&self) -> bool {
        self.ty.bytes() == 1
    }
    /// The kernel's `SCALE` constant: 0 without scales (16-bit), 1 per tensor, 2 per row, 3 per block.
    pub const fn scale_code(&self) -> u32 {
        if !self.is_fp8() {
            return 0;
        }
        match self.scale {
            ScaleMode::Tensor => 1,
            ScaleMode::Row => 2,
            ScaleMode::Block => 3,
        }
    }
    pub const fn with_raster(self, raster: Raster) -> HopperSpec {
        HopperSpec { raster, ..self }
    }

    pub const fn bm(&self) -> u32 {
        64 * self.consumers
    }

    /// CTAs per cluster: the multicast pair, or the split's parts.
    pub const fn ctas(&self) -> u32 {
        self.cluster * self.split
    }

    pub const fn threads(&self) -> u32 {
        WARPGROUP * (self.consumers + 1)
    }

    /// Operand A's smem tile: BM x BK, K-major.
    pub const fn a_tile(&self) -> OperandTile {
        OperandTile::new(self.mode, self.ty, Major::K, self.bm(), self.bk)
    }

    /// Operand B's smem tile: BN x BK, K-major (B is N x K in global memory).
    pub const fn b_tile(&self) -> OperandTile {
        OperandTile::new(self.mode, self.ty, Major::K, self.bn, self.bk)
    }

    /// The part of B one CTA of a cluster loads (and multicasts): `bn / cluster` rows. Its box is the B map's.
    pub const fn b_slice(&self) -> OperandTile {
        OperandTile::new(
            self.mode,
            self.ty,
            Major::K,
            self.bn / self.cluster,
            self.bk,
        )
    }

    /// The boxes of the two TMA maps, (A, B): A's whole tile and B's [`b_slice`](Self::b_slice), what the
    /// kernel's expect-tx byte counts and smem offsets assume. Every launch path encodes its maps from this
    /// (a B map with the whole tile's box under clusters delivers twice the bytes into the wrong rows: the
    /// frame's launch once did that, and hung at 1x1x16 and faulted at 4096^3).
    pub const fn map_boxes(&self) -> (OperandTile, OperandTile) {
        (self.a_tile(), self.b_slice())
    }

    /// Rows of A one TMA box loads for a problem of `m` rows: the tile's rows, or, when `m` is shorter than the
    /// tile, `m` rounded up to the swizzle atom's 8 rows. The rows past them keep whatever the ring held and only
    /// feed output rows past `m`, which the epilogue masks; zero-filling them costs copy time (on an H100 at
    /// M = 16 a 128x32 tile ran 67% longer than at M = 128).
    pub const fn a_box_rows(&self, m: u32) -> u32 {
        let rows = m.div_ceil(8) * 8;
        if rows < self.bm() {
            rows
        } else {
            self.bm()
        }
    }

    /// [`HopperSpec::map_boxes`] for a problem of `m` rows: A's box clipped to [`HopperSpec::a_box_rows`].
    pub const fn map_boxes_for(&self, m: u32) -> (OperandTile, OperandTile) {
        let (a, b) = self.map_boxes();
        (
            OperandTile {
                mn: self.a_box_rows(m),
                ..a
            },
            b,
        )
    }

    /// One consumer warp's epilogue scratch ([`swizzle_core::wgmma::epilogue_tile`] of the output type).
    pub const fn epilogue_tile(&self) -> Smem {
        swizzle_core::wgmma::epilogue_tile(self.out_ty())
    }

    /// The dynamic shared memory the kernel lays out: the ring of A and B tiles, the epilogue scratch of every
    /// consumer warp (with `smem_epilogue`), the split's partial tile (the layout the planner sizes its variants
    /// with, [`swizzle_core::plan::Variant::smem`]).
    pub const fn smem(&self) -> GemmSmem {
        GemmSmem {
            a: self.a_tile(),
            b: self.b_tile(),
            stages: self.stages,
            // An fp32 C is stored from the fragments, without the scratch.
            epilogue_warps: if self.smem_epilogue && self.out_ty().bytes() == 2 {
                4 * self.consumers
            } else {
                0
            },
            epilogue_tile: self.epilogue_tile(),
            split: self.split > 1,
            scale_slot: self.scale_slot_bytes(),
        }
    }

    /// Bytes of a stage's scale slot (the kernel's `SCALE_SLOT_BYTES`): block scaling's
    /// [`swizzle_core::scale::slot_bytes`] for this tile, 0 in the other modes.
    pub const fn scale_slot_bytes(&self) -> u32 {
        if self.scale_code() == 3 {
            swizzle_core::scale::slot_bytes(self.bm(), self.bn)
        } else {
            0
        }
    }

    /// Bytes of [`HopperSpec::smem`].
    pub const fn smem_bytes(&self) -> u32 {
        self.smem().bytes()
    }

    /// Registers a block-scaled consumer thread needs: the fp32 sum (`bn / 2`: a warpgroup's m64nBN fragment) and
    /// [`block_accs`](Self::block_accs) K-block accumulators (`bn / 2` each, `bn / 4` in
    /// [halves](Self::promote_halves)), plus [`BLOCK_REG_RESERVE`](swizzle_core::plan::BLOCK_REG_RESERVE): the
    /// planner's [`swizzle_core::plan::block_regs`].
    ///
    /// ```
    /// use gpu_kernels::hopper::fp8::{BLOCK_HALVES, BLOCK_PIPELINED, BLOCK_WIDE};
    /// assert_eq!(BLOCK_PIPELINED.block_regs(), 3 * 64 + 40); // 128 wide, two accumulators
    /// assert_eq!(BLOCK_WIDE.block_regs(), 2 * 96 + 40); // 192 wide, one
    /// assert_eq!(BLOCK_HALVES.block_regs(), 128 + 64 + 40); // 256 wide, one of half the width
    /// ```
    pub const fn block_regs(&self) -> u32 {
        swizzle_core::plan::block_regs(self.bn, self.block_accs, self.promote_halves)
    }

    /// Registers a consumer thread may use: [`consumer_regs`](Self::consumer_regs) after `setmaxnreg` with two
    /// consumer warpgroups; with one (no rebalancing), the 255 a thread can address.
    pub const fn consumer_reg_budget(&self) -> u32 {
        if self.consumers > 1 {
            self.consumer_regs
        } else {
            255
        }
    }

    /// The same block-scaled spec promoting as the planner's block-scaled specs do: two K-block accumulators where
    /// their registers fit ([`block_regs`](Self::block_regs)), else one (waited for before each promotion: the
    /// 128x192 tile this way outran 128x128 with two by 8-15% at 8192³ and 4096x7168x16384 on an H100), else one
    /// of half the width ([`promote_halves`](Self::promote_halves): the 224- and 256-wide tiles), as
    /// [`swizzle_core::plan::Variant::block_scaling_halves`] models it.
    pub const fn with_block_promotion(self) -> HopperSpec {
        let two = HopperSpec {
            block_accs: 2,
            promote_halves: false,
            ..self
        };
        let one = HopperSpec {
            block_accs: 1,
            ..two
        };
        if two.block_regs() <= two.consumer_reg_budget() {
            two
        } else if one.block_regs() <= one.consumer_reg_budget() {
            one
        } else {
            HopperSpec {
                promote_halves: true,
                ..one
            }
        }
    }

    /// Block scaling: the segments this tile's columns fall into by B scale block, `(step, offsets, segments)`
    /// ([`swizzle_core::scale::b_segments`]): the kernel's `B_SCALE_STEP`, `B_SCALE_OFFSETS`, `B_SCALE_SEGMENTS`
    /// (a scale per segment, staged per K block).
    ///
    /// ```
    /// use gpu_kernels::hopper::fp8::{BLOCK_BASE, BLOCK_WIDE};
    /// use gpu_kernels::hopper::HopperSpec;
    /// assert_eq!(BLOCK_BASE.b_scale_segments(), (128, 1, 1));
    /// // 192-wide tiles start 0 or 64 columns into a block: three segments of 64.
    /// assert_eq!(BLOCK_WIDE.b_scale_segments(), (64, 2, 3));
    /// assert_eq!(HopperSpec { bn: 160, ..BLOCK_WIDE }.b_scale_segments(), (32, 4, 5));
    /// ```
    pub const fn b_scale_segments(&self) -> (u32, u32, u32) {
        swizzle_core::scale::b_segments(self.bn)
    }

    /// Everything the hardware and the kernel need to hold, checked before compiling.
    pub fn validate(&self, smem_optin: usize) -> Result<()> {
        let bad = |m: String| Err(Error::Invalid(format!("{self}: {m}")));
        crate::elem::check_supported("the Hopper GEMM", self.ty, &super::INPUT_TYPES)?;
        if !self.is_fp8() && self.scale != ScaleMode::Tensor {
            return bad(format!("{} inputs take no {} scales", self.ty, self.scale));
        }
        if self.scale_code() == 3 && self.bk != swizzle_core::scale::BLOCK {
            return bad(format!(
                "block scaling needs K stages of {} e4m3 (one scale block)",
                swizzle_core::scale::BLOCK
            ));
        }
        if self.scale_code() == 3 && self.block_regs() > self.consumer_reg_budget() {
            return bad(format!(
                "block scaling keeps the fp32 sum and {} K-block accumulator(s) of {} registers each, plus {} for \
                 addresses and scales: {} registers, a consumer thread has {} (narrower N, one accumulator or \
                 halves)",
                self.block_accs,
                if self.promote_halves { self.bn / 4 } else { self.bn / 2 },
                swizzle_core::plan::BLOCK_REG_RESERVE,
                self.block_regs(),
                self.consumer_reg_budget()
            ));
        }
        if !matches!(self.fp8_out, Elem::BF16 | Elem::F16 | Elem::F32)
            || (!self.is_fp8() && self.fp8_out != Elem::BF16)
        {
            return bad(format!(
                "C in {}: e4m3 writes bf16, f16 or f32, 16-bit inputs their own type",
                self.fp8_out
            ));
        }
        if !(1..=2).contains(&self.block_accs) {
            return bad("block scaling keeps 1 or 2 K-block accumulators".into());
        }
        if self.promote_halves && (self.scale_code() != 3 || self.block_accs != 1) {
            return bad(
                "promoting in N halves is block scaling's, with one K-block accumulator".into(),
            );
        }
        if !(1..=2).contains(&self.consumers) {
            return bad("1 or 2 consumer warpgroups".into());
        }
        if !(32..=256).contains(&self.bn) || !self.bn.is_multiple_of(32) {
            return bad(
                "wgmma N must be a multiple of 32 in 32..=256 (epilogue: 4 blocks of 8)".into(),
            );
        }
        for t in [self.a_tile(), self.b_tile(), self.b_slice()] {
            t.validate().or_else(|e| bad(format!("{t}: {e}")))?;
        }
        if !(1..=2).contains(&self.cluster) {
            return bad("cluster of 1 or 2 CTAs".into());
        }
        if !(1..=MAX_SPLIT).contains(&self.split) || (self.split > 1 && self.cluster > 1) {
            return bad(format!(
                "split-K of 1..={MAX_SPLIT} parts (a portable cluster), and only without the multicast pair"
            ));
        }
        if self.tail && (self.cluster > 1 || self.split > 1) {
            return bad("the tail split runs on lone CTAs without split-K".into());
        }
        if self.stages < 2 || self.inflight > 1 {
            return bad("stages >= 2, inflight 0 or 1".into());
        }
        // setmaxnreg moves registers between the warpgroups of the block's launch allocation (the per-thread
        // count the launch gets, a multiple of 8 of at most 255): a split asking for more blocks in
        // setmaxnreg.inc forever (on an H100, 32/240 with 384 threads: 65536 registers asked, 64512 allocated).
        let pool = self.threads() * ((SM_REGS / self.threads()).min(255) / 8 * 8);
        let regs = WARPGROUP * (self.producer_regs + self.consumers * self.consumer_regs);
        if regs > pool
            || !self.producer_regs.is_multiple_of(8)
            || !self.consumer_regs.is_multiple_of(8)
            || !(24..=256).contains(&self.producer_regs)
            || !(24..=256).contains(&self.consumer_regs)
        {
            return bad(format!(
                "setmaxnreg split {}/{} (multiples of 8 in 24..=256, {regs} registers in all, the launch \
                 allocates {pool})",
                self.producer_regs, self.consumer_regs
            ));
        }
        if self.smem_bytes() as usize > smem_optin {
            return bad(format!(
                "{} B of shared memory, the device allows {smem_optin}",
                self.smem_bytes()
            ));
        }
        Ok(())
    }

    /// `gemm_spec.cuh`: the constants (`namespace spec`) and the `wgmma_tile` wrapper for this spec's BN, from
    /// swizzle-core's emitter.
    pub fn spec_header(&self) -> String {
        let (a, b) = (self.a_tile(), self.b_tile());
        let consts = swizzle_core::cuda::Constants::new("spec")
            .doc(format!(
                "gemm_spec.cuh: generated by gpu-kernels::hopper from {self}. Do not edit."
            ))
            .u32("BM", self.bm())
            .u32("BN", self.bn)
            .u32("BK", self.bk)
            .u32("STAGES", self.stages)
            .u32("CONSUMERS", self.consumers)
            .u32("THREADS", self.threads())
            .u32("ACC", self.bn / 2)
            .u32("ELEM_BYTES", self.ty.bytes())
            .u32("OUT_BYTES", self.out_ty().bytes())
            .u32("INFLIGHT", self.inflight)
            .u32("PRODUCER_REGS", self.producer_regs)
            .u32("CONSUMER_REGS", self.consumer_regs)
            .u32("CLUSTER", self.cluster)
            .u32("SPLIT", self.split)
            .u32("STORE16", self.store16 as u32)
            .u32("SMEM_EPILOGUE", self.smem_epilogue as u32)
            .u32("IN_BF16", u32::from(self.ty == Elem::BF16))
            .u32("OUT_BF16", u32::from(self.out_ty() == Elem::BF16))
            .u32("SCALE", self.scale_code())
            .u32("SCALE_BLOCK", swizzle_core::scale::BLOCK)
            .define(
                "SPEC_SCALE_PARAMS",
                if self.is_fp8() {
                    ", const float* __restrict__ sa, const float* __restrict__ sb"
                } else {
                    ""
                },
            )
            // 16-bit kernels take no scale parameters; their (dead) scale branches read these instead.
            .define(
                "SPEC_SCALE_LOCALS",
                if self.is_fp8() {
                    ""
                } else {
                    "const float* sa = nullptr; const float* sb = nullptr;"
                },
            )
            // The tail split's workspace and split (SPEC_TAIL), in tail-split kernels only.
            .define(
                "SPEC_TAIL_PARAMS",
                if self.tail {
                    ", unsigned int* __restrict__ tail_count, float* __restrict__ tail_partials, \
                     uint32_t tail_tiles, uint32_t tail_parts"
                } else {
                    ""
                },
            )
            .define(
                "SPEC_CLUSTER_DIMS",
                if self.ctas() > 1 {
                    format!("__cluster_dims__({}, 1, 1)", self.ctas())
                } else {
                    String::new()
                },
            );
        let consts = if self.tail {
            consts.define("SPEC_TAIL", "1")
        } else {
            consts
        };
        // Block scaling's own constants, in block-scaled headers only (every other header stays as it was).
        let consts = if self.scale_code() == 3 {
            let (step, offsets, segments) = self.b_scale_segments();
            consts
                .u32("BLOCK_ACCS", self.block_accs)
                .u32("SCALE_SLOT_BYTES", self.scale_slot_bytes())
                .u32("PROMOTE_HALVES", self.promote_halves as u32)
                .u32("B_SCALE_STEP", step)
                .u32("B_SCALE_OFFSETS", offsets)
                .u32("B_SCALE_SEGMENTS", segments)
                .define("SPEC_BLOCK_SCALED", "1")
        } else {
            consts
        };
        // Block scaling's promotion in N halves issues the half-width instruction too (an overload by
        // accumulator length; every block-scaled kernel compiles that branch).
        let half = if self.scale_code() == 3 {
            swizzle_core::cuda::wgmma_tile(self.bn / 2, self.ty, a.major, b.major)
        } else {
            String::new()
        };
        format!(
            "#pragma once\n{}{}{half}",
            consts.render(),
            swizzle_core::cuda::wgmma_tile(self.bn, self.ty, a.major, b.major)
        )
    }

    /// `swz.cuh` for this spec: the operand tiles `GemmA` / `GemmB` and the raster `TileOrder`.
    pub fn swz_header(&self) -> swizzle_core::cuda::Header {
        swizzle_core::cuda::Header::new()
            .wgmma_operand("GemmA", self.a_tile())
            .wgmma_operand("GemmB", self.b_tile())
            .wgmma_operand("GemmBSlice", self.b_slice())
            .raster("TileOrder", self.raster)
            .layout("EpilogueTile", self.epilogue_tile())
    }

    /// `gemm_spec.cuh` as an NVRTC header.
    pub fn gemm_spec_header(&self) -> Header {
        Header {
            name: "gemm_spec.cuh".into(),
            text: self.spec_header(),
        }
    }

    /// The translation unit: `hopper.cu` with `swz.cuh`, `gemm_spec.cuh` and `swz_tma.cuh`.
    pub fn source(&self) -> Source {
        Source {
            name: "hopper.cu".into(),
            text: super::SOURCE.into(),
            headers: vec![
                Header {
                    name: swizzle_core::cuda::HEADER_NAME.into(),
                    text: self.swz_header().render(),
                },
                self.gemm_spec_header(),
            ],
        }
    }

    /// Blocks of the persistent grid for an `m x n` output on `sms` multiprocessors: one per SM, or fewer when
    /// the raster has fewer slots (tiles, plus CUTLASS-style padding).
    /// With clusters the raster orders cluster slots (pairs of vertically adjacent tiles, or one tile's split
    /// parts) and `max_clusters` (the device's co-resident clusters; `sms / ctas` when unknown) bounds the grid.
    pub fn grid(&self, m: u32, n: u32, max_clusters: u32) -> u32 {
        self.slots(m, n).min(max_clusters).max(1) * self.ctas()
    }

    /// The raster's slots for an `m x n` output: its launch grid over the tiles (cluster slots with clusters).
    fn slots(&self, m: u32, n: u32) -> u32 {
        let tiles = swizzle_core::raster::Grid::new(
            n.div_ceil(self.bn),
            m.div_ceil(self.bm()).div_ceil(self.cluster),
        );
        let slots = self.raster.launch_grid(tiles).blocks();
        slots.min(u32::MAX as u64) as u32
    }

    /// The kernel's launch at `size` on a device that runs `max_clusters` clusters at once (every launch of the
    /// spec goes through here: [`HopperGemm::launch`](super::HopperGemm::launch), the frame's verification and
    /// benchmarks): the persistent [`grid`](Self::grid), the block, the dynamic shared memory, and `hopper_gemm`'s
    /// parameters in order: the tensor maps of A (buffer 0) and B (buffer 1) in the boxes the kernel loads
    /// ([`map_boxes_for`](Self::map_boxes_for)), C (buffer 2), `m`, `n`, `k` and A's box rows; e4m3: the scales
    /// (buffers 3 and 4); the tail split: its arrival counters (buffer 5) and partials (buffer 6) in the
    /// workspace, and [`tail_split`](Self::tail_split)'s tiles and parts. An error for a size the kernel cannot
    /// take ([`check_dims`](super::check_dims)).
    pub fn launch(&self, size: Size, max_clusters: u32) -> Result<Launch> {
        super::check_dims(size)?;
        let Size { m, n, k } = size;
        let (a_box, b_box) = self.map_boxes_for(m);
        Ok(Launch {
            config: LaunchConfig {
                grid_dim: (self.grid(m, n, max_clusters), 1, 1),
                block_dim: (self.threads(), 1, 1),
                shared_mem_bytes: self.smem_bytes(),
            },
            args: vec![
                Arg::TensorMap {
                    buf: 0,
                    rows: m,
                    k,
                    tile: a_box,
                },
                Arg::TensorMap {
                    buf: 1,
                    rows: n,
                    k,
                    tile: b_box,
                },
                Arg::Buf(2),
                Arg::U32(m),
                Arg::U32(n),
                Arg::U32(k),
                Arg::U32(self.a_box_rows(m)),
            ]
            .into_iter()
            // e4m3: A's and B's fp32 scales (SPEC_SCALE_PARAMS).
            .chain(if self.is_fp8() {
                vec![Arg::Buf(3), Arg::Buf(4)]
            } else {
                Vec::new()
            })
            // The tail split (SPEC_TAIL_PARAMS).
            .chain(if self.tail {
                let t = self.tail_split(size, max_clusters);
                vec![
                    Arg::Buf(5),
                    Arg::Buf(6),
                    Arg::U32(t.tiles),
                    Arg::U32(t.parts),
                ]
            } else {
                Vec::new()
            })
            .collect(),
        })
    }

    /// The tail split a launch at `size` takes on a device running `max_clusters` clusters at once: with
    /// [`tail`](Self::tail), [`swizzle_core::tail::split`] of the order's slots on the persistent grid
    /// ([`TailSplit::NONE`](swizzle_core::tail::TailSplit::NONE) where it has none); without, none.
    pub fn tail_split(&self, size: Size, max_clusters: u32) -> swizzle_core::tail::TailSplit {
        use swizzle_core::tail::{split, TailSplit};
        if !self.tail {
            return TailSplit::NONE;
        }
        let Size { m, n, k } = size;
        let grid = self.grid(m, n, max_clusters) / self.ctas();
        split(self.slots(m, n), grid, k.div_ceil(self.bk)).unwrap_or(TailSplit::NONE)
    }
}

impl std::fmt::Display for HopperSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}x{}x{} {}st {} {} inflight{} regs{}/{}{}{}{}",
            if self.is_fp8() {
                let out = if self.fp8_out == Elem::BF16 {
                    String::new()
                } else {
                    format!(" out-{}", self.fp8_out)
                };
                let promote = if self.scale == ScaleMode::Block {
                    format!(
                        " accs{}{}",
                        self.block_accs,
                        if self.promote_halves { " halves" } else { "" }
                    )
                } else {
                    String::new()
                };
                format!("{} per-{}{promote}{out}", self.ty, self.scale)
            } else {
                self.ty.to_string()
            },
            self.bm(),
            self.bn,
            self.bk,
            self.stages,
            self.mode,
            self.raster,
            self.inflight,
            self.producer_regs,
            self.consumer_regs,
            if self.cluster > 1 {
                format!(" cluster{}", self.cluster)
            } else {
                String::new()
            },
            if self.smem_epilogue {
                " stmatrix-epilogue"
            } else if self.store16 {
                ""
            } else {
                " store4"
            },
            if self.split > 1 {
                format!(" split{}", self.split)
            } else if self.tail {
                " tail".to_string()
            } else {
                String::new()
            }
        )
    }
}
