//! The Hopper GEMM on e4m3 inputs: the same spec, kernel and launch path as the 16-bit one, with the element
//! type and scaling in the spec ([`HopperSpec::ty`](super::HopperSpec::ty) = e4m3, [`HopperSpec::scale`](super::HopperSpec::scale)).
//!
//! What changes with the element type, all derived from the operand tiles: one 128-byte smem row holds 128 e4m3
//! (the K step per stage is 128, [`HopperSpec::with_ty`](super::HopperSpec::with_ty)), the TMA boxes and swizzle
//! are the same bytes, the `wgmma` is `m64nNk32.f32.e4m3.e4m3` (32 bytes of K per instruction either way), and C
//! is bf16, f16 or f32 ([`HopperSpec::fp8_out`](super::HopperSpec::fp8_out)). The scales come as typed arguments
//! ([`Scales`]) checked before the launch: per tensor and per row they multiply the fp32 sums before the
//! epilogue; per block each 128-wide K block is accumulated on its own and promoted into the fp32 sum with its
//! scales, every 128 of K. An N tile may span several 128-wide B scale blocks (a 192-wide tile two): each
//! 8-column group of the accumulator takes its own block's scale ([`HopperSpec::b_scale_segments`]). A producer
//! warp copies each K block's scales (the tile's rows of A, its segments' blocks of B) into a slot beside the
//! stage's tiles with `cp.async`, arriving on the stage's full barrier, so the consumers read them from shared
//! memory and no global load is in flight at a `wgmma` fence (register loads there cost 25-30% of the speed). With
//! [`HopperSpec::block_accs`](super::HopperSpec::block_accs) = 2 the next K block runs on the tensor core in a
//! second accumulator while this one is promoted: three accumulators' registers, which fit up to 128-wide tiles
//! ([`HopperSpec::block_regs`]); wider tiles promote one accumulator, waited for, and tiles wider than 192 one of
//! half the width, each K block as two N halves in turn ([`HopperSpec::promote_halves`]). With one, the tensor
//! core runs the other consumer's K block (or half, queued behind this one's) while this consumer promotes, so
//! each consumer waits for its next stage and reads its scales while its own `wgmma`s run: between its group's
//! end and its next issue there is only the promotion. A spec with [`HopperSpec::tail`](super::HopperSpec::tail)
//! cuts the last partial wave's tiles into parts of K ([`swizzle_core::tail`]); [`HopperGemm::launch_fp8`]
//! allocates its workspace at the first launch that needs one and reuses it.
//!
//! ```
//! use gpu_kernels::hopper::{fp8, SHIPPED};
//! use gpu_kernels::fp8::ScaleMode;
//! use gpu_kernels::{Elem, Size};
//! let spec = SHIPPED.with_ty(Elem::E4M3).with_scale(ScaleMode::Row);
//! assert_eq!((spec.bk, spec.out_ty()), (128, Elem::BF16));
//! assert!(spec.validate(232_448).is_ok());
//! // Block scaling keeps the fp32 sum and its K-block accumulators in registers: 128x256 does not fit.
//! assert!(spec.with_scale(ScaleMode::Block).validate(232_448).is_err());
//! let p = fp8::plan(Size::mnk(16, 4096, 4096), ScaleMode::Block, &swizzle_core::plan::Device::H100).unwrap();
//! assert!(p.spec.block_regs() <= p.spec.consumer_reg_budget() && p.spec.is_fp8());
//! ```

use super::planned::{spec_of, Planned};
use super::{HopperGemm, HopperSpec, SHIPPED};
use crate::elem::{E4m3, HostElem};
use crate::fp8::reference::{self, Agreement, Bound};
use crate::fp8::{ScaleMode, Scales};
use crate::runtime::{Error, Gpu, Result};
use crate::Size;
use cudarc::driver::CudaSlice;
use swizzle_core::plan::{self, Device, Problem};
use swizzle_core::Elem;

/// The fastest spec the planner's model finds for `size` in e4m3 with `mode`'s scaling among what the kernel
/// implements (for block scaling: N tiles whose fp32 sum and K-block accumulators fit the registers, with two
/// accumulators where they fit, else one: [`HopperSpec::with_block_promotion`]). One line for an empty problem
/// or K not a multiple of 16.
pub fn plan(size: Size, mode: ScaleMode, dev: &Device) -> Result<Planned> {
    Ok(ranked(size, mode, dev, 1)?.remove(0))
}

/// The `count` fastest implemented specs by the model for `size` in e4m3 with `mode`'s scaling, at most one per
/// kernel shape (tile, cluster, split, tail: block orders of one shape run alike), fastest first: the first is
/// [`plan()`]'s pick, the others its runners-up (what `swz bench gemm --candidates` measures beside it). At least
/// one (`count` 0 is taken as 1), fewer than `count` where fewer kernel shapes are implemented; one line for an
/// empty problem, K not a multiple of 16, or no implemented variant.
pub fn ranked(size: Size, mode: ScaleMode, dev: &Device, count: usize) -> Result<Vec<Planned>> {
    let p = Problem::new(size, Elem::E4M3).with_scale(mode);
    let planned =
        plan::plan(&p, dev).map_err(|e| Error::Invalid(format!("{}: {e}", size.mnk_text())))?;
    let mut out = Vec::new();
    for e in planned.by_shape() {
        if out.len() == count.max(1) {
            break;
        }
        let mut spec = spec_of(&e.variant, Elem::E4M3)?.with_scale(mode);
        if mode == ScaleMode::Block {
            spec = spec.with_block_promotion();
        }
        if spec.validate(dev.smem_per_block as usize).is_ok() {
            out.push(Planned {
                spec,
                estimate: *e,
                device: dev.name,
            });
        }
    }
    if out.is_empty() {
        return Err(Error::Invalid(format!(
            "{}: no implemented e4m3 variant for per-{mode} scaling",
            size.mnk_text()
        )));
    }
    Ok(out)
}

/// The block-scaling configuration the sweep ([`block_variants`]) starts from: 128x128 tile, 6 stages, clusters
/// of two sharing B, one K-block accumulator waited for before its promotion.
pub const BLOCK_BASE: HopperSpec = HopperSpec {
    bn: 128,
    stages: 6,
    block_accs: 1,
    ..SHIPPED.with_ty(Elem::E4M3).with_scale(ScaleMode::Block)
};

/// [`BLOCK_BASE`] with two K-block accumulators (the next block's `wgmma`s issued before this one's
/// promotion): the planner's block-scaled specs of 128 columns or fewer promote this way.
pub const BLOCK_PIPELINED: HopperSpec = HopperSpec {
    block_accs: 2,
    ..BLOCK_BASE
};

/// The 192-wide block-scaling tile: 128x192 (two 64-row consumer warpgroups, m64n192), one K-block accumulator
/// (the fp32 sum and a 96-register accumulator fit where three would not), the deepest ring that fits (5
/// stages), clusters of two sharing B. A tile starts 0 or 64 columns into a 128-wide B scale block and spans two
/// of them. The planner's block-scaled spec at 8192³ is this tile as a single CTA.
pub const BLOCK_WIDE: HopperSpec = HopperSpec {
    bn: 192,
    stages: 5,
    block_accs: 1,
    ..BLOCK_BASE
};

/// The 256-wide block-scaling tile: 128x256, one K-block accumulator of half the width (the fp32 sum, 128
/// registers, and a whole-width accumulator would need 296), so each K block runs as two m64n128 groups in turn
/// ([`HopperSpec::promote_halves`]), 4 stages, clusters of two sharing B. A tile spans two B scale blocks, one per
/// half. The planner's block-scaled spec at 4096x7168x16384 is this tile as a single CTA.
pub const BLOCK_HALVES: HopperSpec = HopperSpec {
    bn: 256,
    stages: 4,
    block_accs: 1,
    promote_halves: true,
    ..BLOCK_BASE
};

/// The block-scaling sweep: (what differs, the spec), each differing from [`BLOCK_BASE`], [`BLOCK_PIPELINED`],
/// [`BLOCK_WIDE`] or [`BLOCK_HALVES`] in one thing (`swz tune hopper fp8-block` times them against cuBLASLt).
pub fn block_variants() -> Vec<(&'static str, HopperSpec)> {
    let p = BLOCK_PIPELINED;
    let w = BLOCK_WIDE;
    let h = BLOCK_HALVES;
    vec![
        (
            "base: 128x128, 1 accumulator, wait_group 0, 6 stages",
            BLOCK_BASE,
        ),
        (
            "base + 5 stages",
            HopperSpec {
                stages: 5,
                ..BLOCK_BASE
            },
        ),
        (
            "base + single CTA (no B multicast)",
            HopperSpec {
                cluster: 1,
                ..BLOCK_BASE
            },
        ),
        ("pipelined: 2 accumulators", p),
        (
            "pipelined + single CTA (no B multicast)",
            HopperSpec { cluster: 1, ..p },
        ),
        ("wide: 128x192, 1 accumulator, 5 stages (base, N 192)", w),
        (
            "wide + single CTA (no B multicast)",
            HopperSpec { cluster: 1, ..w },
        ),
        (
            "wide + single CTA + tail split",
            HopperSpec {
                cluster: 1,
                tail: true,
                ..w
            },
        ),
        ("wide + 4 stages", HopperSpec { stages: 4, ..w }),
        ("wide, N 160", HopperSpec { bn: 160, ..w }),
        (
            "wide + single CTA + promoted in N halves (one m64n96 accumulator)",
            HopperSpec {
                promote_halves: true,
                cluster: 1,
                ..w
            },
        ),
        ("halves: 128x256, one m64n128 accumulator, 4 stages", h),
        (
            "halves + single CTA (no B multicast)",
            HopperSpec { cluster: 1, ..h },
        ),
        (
            "halves + single CTA + tail split",
            HopperSpec {
                cluster: 1,
                tail: true,
                ..h
            },
        ),
        ("halves, N 224", HopperSpec { bn: 224, ..h }),
        (
            "wide + raster group_m 16",
            w.with_raster(swizzle_core::raster::Raster::GroupM { group: 16 }),
        ),
    ]
}

impl HopperGemm {
    /// The planned e4m3 kernel for `size` with `mode`'s scaling on this GPU ([`plan`](fn@plan)), compiled and loaded.
    pub fn planned_fp8(gpu: &Gpu, size: Size, mode: ScaleMode) -> Result<(HopperGemm, Planned)> {
        let p = plan(size, mode, &super::planned::plan_device(gpu.props()))?;
        Ok((HopperGemm::new(gpu, p.spec)?, p))
    }

    /// Queue `c = scales(a · bᵀ)` (a: m x k, b: n x k e4m3, c: m x n in the spec's output type, bf16, f16 or
    /// f32, row-major). Checks, before launching, that the kernel is an e4m3 one compiled for `scales`' mode and
    /// `c`'s type, K is a multiple of 16, and every buffer (scales included) holds what the problem needs.
    pub fn launch_fp8<O: HostElem>(
        &self,
        gpu: &Gpu,
        a: &CudaSlice<E4m3>,
        b: &CudaSlice<E4m3>,
        scales: &Scales<CudaSlice<f32>>,
        c: &mut CudaSlice<O>,
        size: Size,
    ) -> Result<()> {
        if !self.spec.is_fp8() || self.spec.scale != scales.mode() || self.spec.out_ty() != O::ELEM
        {
            return Err(Error::Invalid(format!(
                "{}: called with e4m3 buffers, per-{} scales and a {} C",
                self.spec,
                scales.mode(),
                O::ELEM
            )));
        }
        scales.validate(size)?;
        super::check_lens(size, a.len(), b.len(), c.len())?;
        self.queue(gpu, (a, b), Some(scales.parts()), c, size)
    }
}

/// Run the e4m3 kernel `g` on fresh random inputs and scales with a poisoned output, and compare with the fp64
/// host reference of the dequantized inputs (every row up to 1024, 96 sampled rows above) element by element
/// within [`Bound`], normwise within `normwise_max`.
pub fn check(
    gpu: &Gpu,
    g: &HopperGemm,
    size: Size,
    seed: u64,
    normwise_max: f64,
) -> Result<Agreement> {
    let Size { m, n, k } = size;
    let a = reference::random_e4m3(m as usize * k as usize, seed);
    let b = reference::random_e4m3(n as usize * k as usize, seed ^ 0x9e37_79b9);
    let rows = super::check::sample_rows(m, seed);
    check_on(gpu, g, size, (&a, &b), &rows, seed, normwise_max)
}

/// [`check`] on given inputs `(a, b)` and host rows `rows` (fresh random scales from `seed`).
pub fn check_on(
    gpu: &Gpu,
    g: &HopperGemm,
    size: Size,
    (a, b): (&[E4m3], &[E4m3]),
    rows: &[u32],
    seed: u64,
    normwise_max: f64,
) -> Result<Agreement> {
    let Size { n, k, .. } = size;
    let scales = reference::random_scales(g.spec.scale, size, seed ^ 0x5ca1e);
    let (da, db) = (gpu.upload(a)?, gpu.upload(b)?);
    let ds = scales.map(|v| gpu.upload(v))?;
    let got = match g.spec.out_ty() {
        Elem::F32 => run_poisoned::<f32>(gpu, g, (&da, &db), &ds, size)?,
        Elem::F16 => run_poisoned::<half::f16>(gpu, g, (&da, &db), &ds, size)?,
        _ => run_poisoned::<half::bf16>(gpu, g, (&da, &db), &ds, size)?,
    };
    let r = reference::host_rows(a, b, size, &scales, rows)?;
    let bound = Bound::new(g.spec.out_ty(), g.spec.scale, k);
    reference::compare(
        |i, j| got[i as usize * n as usize + j],
        rows,
        &r,
        &bound,
        normwise_max,
        &format!("{} {size}", g.spec),
    )
}

/// `g` on device inputs into a NaN-poisoned C of type `O`, read back as f64.
fn run_poisoned<O: HostElem>(
    gpu: &Gpu,
    g: &HopperGemm,
    (a, b): (&CudaSlice<E4m3>, &CudaSlice<E4m3>),
    scales: &Scales<CudaSlice<f32>>,
    size: Size,
) -> Result<Vec<f64>> {
    let mut c = gpu.zeros::<O>(size.mn_len())?;
    gpu.fill_bytes(&mut c, 0xFF)?;
    g.launch_fp8(gpu, a, b, scales, &mut c, size)?;
    gpu.sync()?;
    Ok(gpu.download(&c)?.into_iter().map(O::to_f64).collect())
}
