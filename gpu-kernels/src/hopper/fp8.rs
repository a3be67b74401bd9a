//! The Hopper GEMM on e4m3 inputs: the same spec, kernel and launch path as the 16-bit one, with the element
//! type and scaling in the spec ([`HopperSpec::ty`](super::HopperSpec::ty) = e4m3, [`HopperSpec::scale`](super::HopperSpec::scale)).
//!
//! What changes with the element type, all derived from the operand tiles: one 128-byte smem row holds 128 e4m3
//! (the K step per stage is 128, [`HopperSpec::with_ty`](super::HopperSpec::with_ty)), the TMA boxes and swizzle are the same bytes, the
//! `wgmma` is `m64nNk32.f32.e4m3.e4m3` (32 bytes of K per instruction either way), and C is bf16. The scales come
//! as typed arguments ([`Scales`]) checked before the launch: per tensor and per row they multiply the fp32 sums
//! before the epilogue; per block each 128-wide K block is accumulated on its own and promoted into the fp32 sum
//! with its scales (N tiles of 32, 64 or 128: the promoted accumulator doubles the registers).
//!
//! ```
//! use gpu_kernels::hopper::{fp8, SHIPPED};
//! use gpu_kernels::fp8::ScaleMode;
//! use gpu_kernels::{Elem, Size};
//! let spec = SHIPPED.with_ty(Elem::E4M3).with_scale(ScaleMode::Row);
//! assert_eq!((spec.bk, spec.out_ty()), (128, Elem::BF16));
//! assert!(spec.validate(232_448).is_ok());
//! // Block scaling keeps the N tile within one 128-wide scale block.
//! assert!(spec.with_scale(ScaleMode::Block).validate(232_448).is_err());
//! let p = fp8::plan(Size::mnk(16, 4096, 4096), ScaleMode::Block, &swizzle_core::plan::Device::H100).unwrap();
//! assert!(p.spec.bn <= 128 && p.spec.is_fp8());
//! ```

use super::planned::{spec_of, Planned};
use super::HopperGemm;
use crate::elem::E4m3;
use crate::fp8::reference::{self, Agreement, Bound};
use crate::fp8::{ScaleMode, Scales};
use crate::frame::Arg;
use crate::runtime::tma::TensorMap;
use crate::runtime::{Error, Gpu, Result};
use crate::Size;
use cudarc::driver::{CudaSlice, DevicePtr, PushKernelArg};
use swizzle_core::plan::{self, Device, Problem};
use swizzle_core::Elem;

/// The fastest spec the planner's model finds for `size` in e4m3 with `mode`'s scaling among what the kernel
/// implements (for block scaling: N tiles that divide 128). One line for an empty problem or K not a multiple
/// of 16.
pub fn plan(size: Size, mode: ScaleMode, dev: &Device) -> Result<Planned> {
    let p = Problem::new(size, Elem::E4M3).with_scale(mode);
    let planned =
        plan::plan(&p, dev).map_err(|e| Error::Invalid(format!("{}: {e}", size.mnk_text())))?;
    for e in std::iter::once(planned.best).chain(planned.runners_up) {
        let spec = spec_of(&e.variant, Elem::E4M3)?.with_scale(mode);
        if spec.validate(dev.smem_per_block as usize).is_ok() {
            return Ok(Planned {
                spec,
                estimate: e,
                device: dev.name,
            });
        }
    }
    Err(Error::Invalid(format!(
        "{}: no implemented e4m3 variant for per-{mode} scaling",
        size.mnk_text()
    )))
}

impl HopperGemm {
    /// The planned e4m3 kernel for `size` with `mode`'s scaling on this GPU ([`plan`](fn@plan)), compiled and loaded.
    pub fn planned_fp8(gpu: &Gpu, size: Size, mode: ScaleMode) -> Result<(HopperGemm, Planned)> {
        let p = plan(size, mode, &super::planned::plan_device(gpu.props()))?;
        Ok((HopperGemm::new(gpu, p.spec)?, p))
    }

    /// Queue `c = scales(a · bᵀ)` (a: m x k, b: n x k e4m3, c: m x n bf16, row-major). Checks, before
    /// launching, that the kernel is an e4m3 one compiled for `scales`' mode, K is a multiple of 16, and every
    /// buffer (scales included) holds what the problem needs.
    pub fn launch_fp8(
        &self,
        gpu: &Gpu,
        a: &CudaSlice<E4m3>,
        b: &CudaSlice<E4m3>,
        scales: &Scales<CudaSlice<f32>>,
        c: &mut CudaSlice<half::bf16>,
        size: Size,
    ) -> Result<()> {
        if !self.spec.is_fp8() || self.spec.scale != scales.mode() {
            return Err(Error::Invalid(format!(
                "{}: called with e4m3 buffers and per-{} scales",
                self.spec,
                scales.mode()
            )));
        }
        scales.validate(size)?;
        let Size { m, n, k } = size;
        for (what, len, want) in [
            ("A", a.len(), m as u64 * k as u64),
            ("B", b.len(), n as u64 * k as u64),
            ("C", c.len(), m as u64 * n as u64),
        ] {
            if (len as u64) < want {
                return Err(Error::Invalid(format!(
                    "{what} holds {len} elements, {m}x{n}x{k} needs {want}"
                )));
            }
        }
        // The launch (grid, boxes, argument list) is the spec's one ([`HopperSpec::launch`]): buffers 0 and 1 are
        // A and B (as tensor maps), 2 is C, 3 and 4 the scales.
        let launch = self.launch_at(size)?;
        if let Some(other) = launch.args.iter().find(|a| {
            !matches!(
                a,
                Arg::TensorMap { buf: 0 | 1, .. } | Arg::Buf(2..=4) | Arg::U32(_)
            )
        }) {
            return Err(Error::Invalid(format!(
                "{}: unexpected launch argument {other:?}",
                self.spec
            )));
        }
        let mut maps = Vec::new();
        for arg in &launch.args {
            if let Arg::TensorMap { buf, rows, k, tile } = *arg {
                let d = if buf == 0 { a } else { b };
                let (ptr, _guard) = d.device_ptr(gpu.stream());
                maps.push(TensorMap::k_major(ptr, d.len(), &tile, rows, k)?);
            }
        }
        let (sa, sb) = scales.parts();
        let mut next_map = maps.iter();
        gpu.launch(self.kernel(), launch.config, |p| {
            for arg in &launch.args {
                match arg {
                    Arg::TensorMap { .. } => {
                        p.arg(next_map.next().expect("one map per TensorMap argument"));
                    }
                    Arg::Buf(3) => {
                        p.arg(sa);
                    }
                    Arg::Buf(4) => {
                        p.arg(sb);
                    }
                    Arg::U32(v) => {
                        p.arg(v);
                    }
                    // Buffer 2, C (the only other argument, checked above).
                    _ => {
                        p.arg(&*c);
                    }
                }
            }
        })
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
    let mut dc = gpu.zeros::<half::bf16>(size.mn_len())?;
    gpu.fill_bytes(&mut dc, 0xFF)?; // NaN poison
    g.launch_fp8(gpu, &da, &db, &ds, &mut dc, size)?;
    gpu.sync()?;
    let got = gpu.download(&dc)?;
    let r = reference::host_rows(a, b, size, &scales, rows)?;
    let bound = Bound::new(Elem::BF16, g.spec.scale, k);
    reference::compare(
        |i, j| got[i as usize * n as usize + j].to_f64(),
        rows,
        &r,
        &bound,
        normwise_max,
        &format!("{} {size}", g.spec),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hopper::SHIPPED;

    #[test]
    fn e4m3_specs_keep_the_row_bytes_and_name_their_scaling() {
        let s = SHIPPED.with_ty(Elem::E4M3);
        assert_eq!((s.bk, s.a_tile().params().tile_bytes), (128, 128 * 128));
        assert_eq!(s.smem_bytes(), SHIPPED.smem_bytes());
        assert_eq!(s.with_ty(Elem::BF16), SHIPPED);
        let h = s.with_scale(ScaleMode::Row).spec_header();
        assert!(h.contains("m64n256k32.f32.e4m3.e4m3"), "{h}");
        assert!(h.contains("SCALE = 2") && h.contains("OUT_BF16 = 1"), "{h}");
        assert!(h.contains("const float* __restrict__ sa"), "{h}");
        assert!(s
            .with_scale(ScaleMode::Row)
            .to_string()
            .starts_with("e4m3 per-row 128x256x128"));
        // 16-bit specs take no scales and keep their header.
        assert!(SHIPPED.spec_header().contains("SCALE = 0"));
        let bad = SHIPPED.with_scale(ScaleMode::Row).validate(232_448);
        assert!(bad.unwrap_err().to_string().contains("take no row scales"));
    }

    #[test]
    fn plans_fit_the_mode() {
        let dev = Device::H100;
        for mode in ScaleMode::ALL {
            for size in [
                Size::mnk(16, 4096, 4096),
                Size::mnk(8192, 8192, 8192),
                Size::mnk(3, 1000, 272),
            ] {
                let p = plan(size, mode, &dev).unwrap();
                assert_eq!((p.spec.scale, p.spec.bk), (mode, 128), "{size}");
                p.spec.validate(dev.smem_per_block as usize).unwrap();
                if mode == ScaleMode::Block {
                    assert_eq!(128 % p.spec.bn, 0, "{}", p.spec);
                }
            }
        }
        let e = plan(Size::mnk(16, 16, 40), ScaleMode::Tensor, &dev).unwrap_err();
        assert!(e.to_string().contains("multiple of 16"), "{e}");
    }
}
