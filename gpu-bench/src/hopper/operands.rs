//! One problem's operands for timing the Hopper GEMM against cuBLAS on the same buffers, whatever the element
//! type: random inputs (never zeros) in one or more buffer sets, and cuBLAS's output on the first set, the
//! reference every kernel is compared with before it is timed. `swz tune hopper` (one set) and its `shapes`
//! report (enough sets to exceed the L2) both measure through it.

use crate::bench::{self, BenchConfig, Spread};
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::HostElem;
use gpu_kernels::frame::Size;
use gpu_kernels::hopper::{check, cublas_call, Cublas, HopperGemm, TYPES};
use gpu_kernels::runtime::{Error, Gpu, Result};
use swizzle_core::Elem;

/// What the measurements do with a problem's operands, whatever their element type ([`operands`] picks it at
/// run time).
pub trait Operands {
    /// The problem, `M x N x K`.
    fn size(&self) -> Size;
    /// Poison set 0's C, run `g` once, compare element-wise with cuBLAS's output (fails on any wrong element);
    /// the relative Frobenius difference.
    fn verify(&mut self, gpu: &Gpu, g: &HopperGemm) -> Result<f64>;
    /// Queue `g` on buffer set `i % sets`.
    fn run_ours(&mut self, gpu: &Gpu, g: &HopperGemm, i: usize) -> Result<()>;
    /// Queue cuBLAS on buffer set `i % sets`.
    fn run_cublas(&mut self, blas: &Cublas, i: usize) -> Result<()>;

    /// `g` timed with `cfg`, launch `i` on set `i % sets`.
    fn time_ours(&mut self, gpu: &Gpu, g: &HopperGemm, cfg: &BenchConfig) -> Result<Spread> {
        bench::time(gpu, cfg, |i| self.run_ours(gpu, g, i))
    }
    /// cuBLAS timed with `cfg`, launch `i` on set `i % sets`.
    fn time_cublas(&mut self, gpu: &Gpu, blas: &Cublas, cfg: &BenchConfig) -> Result<Spread> {
        bench::time(gpu, cfg, |i| self.run_cublas(blas, i))
    }
}

/// `sets` (at least one) buffer sets of `size` in `ty`, each A (random from `seed`), B (random from `seed + 1`)
/// and a poisoned C, with cuBLAS's output on set 0.
pub fn operands(
    gpu: &Gpu,
    blas: &Cublas,
    ty: Elem,
    size: Size,
    seed: u64,
    sets: usize,
) -> Result<Box<dyn Operands>> {
    Ok(match ty {
        Elem::BF16 => Box::new(Sets::<half::bf16>::new(gpu, blas, size, seed, sets)?),
        Elem::F16 => Box::new(Sets::<half::f16>::new(gpu, blas, size, seed, sets)?),
        other => {
            return Err(gpu_kernels::elem::unsupported(
                "the Hopper GEMM",
                other,
                &TYPES,
            ))
        }
    })
}

/// The buffer sets of one problem in the element type `E`, and cuBLAS's output on set 0.
struct Sets<E: HostElem> {
    size: Size,
    abc: Vec<(CudaSlice<E>, CudaSlice<E>, CudaSlice<E>)>,
    want: Vec<E>,
}

impl<E: HostElem> Sets<E> {
    fn new(gpu: &Gpu, blas: &Cublas, size: Size, seed: u64, count: usize) -> Result<Sets<E>> {
        let x = check::random::<E>(size.mk_len(), seed);
        let w = check::random::<E>(size.nk_len(), seed + 1);
        let mut abc = Vec::with_capacity(count.max(1));
        for _ in 0..count.max(1) {
            let mut c = gpu.zeros::<E>(size.mn_len())?;
            gpu.fill_bytes(&mut c, 0xFF)?;
            abc.push((gpu.upload(&x)?, gpu.upload(&w)?, c));
        }
        let (a, b, c) = &mut abc[0];
        blas.gemm(&cublas_call(E::ELEM, size), a, b, c)?;
        gpu.sync()?;
        let want = gpu.download(c)?;
        Ok(Sets { size, abc, want })
    }

    fn set(&mut self, i: usize) -> &mut (CudaSlice<E>, CudaSlice<E>, CudaSlice<E>) {
        let n = self.abc.len();
        &mut self.abc[i % n]
    }
}

impl<E: HostElem> Operands for Sets<E> {
    fn size(&self) -> Size {
        self.size
    }

    fn verify(&mut self, gpu: &Gpu, g: &HopperGemm) -> Result<f64> {
        let size = self.size;
        let (a, b, c) = self.set(0);
        gpu.fill_bytes(c, 0xFF)?;
        g.launch(gpu, a, b, c, size)?;
        gpu.sync()?;
        let got = gpu.download(c)?;
        compare_with_cublas(&g.spec.to_string(), size, &got, &self.want)
    }

    fn run_ours(&mut self, gpu: &Gpu, g: &HopperGemm, i: usize) -> Result<()> {
        let size = self.size;
        let (a, b, c) = self.set(i);
        g.launch(gpu, a, b, c, size)
    }

    fn run_cublas(&mut self, blas: &Cublas, i: usize) -> Result<()> {
        let size = self.size;
        let (a, b, c) = self.set(i);
        blas.gemm(&cublas_call(E::ELEM, size), a, b, c)
    }
}

/// Compare `got` with cuBLAS's `want` element-wise (the tolerance of [`check::tolerance`], doubled: both sides
/// round); the relative Frobenius difference, or an error naming `what` and how many elements differ.
fn compare_with_cublas<E: HostElem>(what: &str, size: Size, got: &[E], want: &[E]) -> Result<f64> {
    let (mut num, mut den, mut bad) = (0.0f64, 0.0f64, 0usize);
    for (&x, &y) in got.iter().zip(want) {
        let (x, y) = (x.to_f64(), y.to_f64());
        let e = (x - y).abs();
        if !x.is_finite() || e > 2.0 * check::tolerance(E::ELEM, y, size.k) {
            bad += 1;
        }
        num += e * e;
        den += y * y;
    }
    if bad > 0 || got.len() != want.len() {
        return Err(Error::Mismatch(format!(
            "{what} {size}: {bad} elements differ from cuBLAS"
        )));
    }
    Ok((num / den).sqrt())
}
