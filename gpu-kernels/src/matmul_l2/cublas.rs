//! The peer: cuBLAS SGEMM through cudarc, fp32 in, fp32 compute, fp32 out. The handle's math mode is set to
//! `CUBLAS_DEFAULT_MATH` explicitly, which for SGEMM means no TF32 (TF32 needs `CUBLAS_TF32_TENSOR_OP_MATH` or
//! `NVIDIA_TF32_OVERRIDE=1`, which the device script unsets); the GPU test `cublas_sgemm_is_fp32` checks the
//! result against the f64 host reference at fp32 tolerance, which TF32 would fail.

use crate::runtime::{Error, Gpu, Result};
use cudarc::cublas::{sys, CudaBlas, Gemm as _, GemmConfig};
use cudarc::driver::CudaSlice;
use swizzle_core::l2::Gemm;

/// A cuBLAS handle on the GPU's stream.
pub struct Sgemm {
    blas: CudaBlas,
}

fn blas_err(what: &'static str) -> impl Fn(cudarc::cublas::result::CublasError) -> Error {
    move |e| Error::Cublas {
        what: what.to_string(),
        detail: format!("{e:?}"),
    }
}

impl Sgemm {
    /// A handle on `gpu`'s stream, FP32 math. Fails (never panics) without libcublas.
    pub fn new(gpu: &Gpu) -> Result<Sgemm> {
        // SAFETY: only dlopen-probes the library.
        if !unsafe { sys::is_culib_present() } {
            return Err(Error::Cublas {
                what: "dlopen".into(),
                detail: "libcublas not found (add the CUDA toolkit's lib64 to LD_LIBRARY_PATH)"
                    .into(),
            });
        }
        let blas = CudaBlas::new(gpu.stream().clone()).map_err(blas_err("cublasCreate"))?;
        // SAFETY: the handle is live; the mode is a valid enum value.
        unsafe { sys::cublasSetMathMode(*blas.handle(), sys::cublasMath_t::CUBLAS_DEFAULT_MATH) }
            .result()
            .map_err(blas_err("cublasSetMathMode"))?;
        Ok(Sgemm { blas })
    }

    /// Queue row-major `c = a * b`. cuBLAS is column-major, so this computes `C^T = B^T A^T`: the row-major
    /// buffers read as column-major are already the transposes, so no transpose flags are needed.
    pub fn run(
        &self,
        a: &CudaSlice<f32>,
        b: &CudaSlice<f32>,
        c: &mut CudaSlice<f32>,
        gemm: Gemm,
    ) -> Result<()> {
        let (m, n, k) = (gemm.m as usize, gemm.n as usize, gemm.k as usize);
        if a.len() < m * k
            || b.len() < k * n
            || c.len() < m * n
            || gemm.m.max(gemm.n).max(gemm.k) > i32::MAX as u32
        {
            return Err(Error::Invalid(format!(
                "cuBLAS SGEMM: bad buffers or shape for {gemm}"
            )));
        }
        let cfg = GemmConfig {
            transa: sys::cublasOperation_t::CUBLAS_OP_N,
            transb: sys::cublasOperation_t::CUBLAS_OP_N,
            m: gemm.n as i32,
            n: gemm.m as i32,
            k: gemm.k as i32,
            alpha: 1.0f32,
            lda: gemm.n as i32,
            ldb: gemm.k as i32,
            beta: 0.0f32,
            ldc: gemm.n as i32,
        };
        // SAFETY: the buffers hold at least the m*k, k*n, m*n elements the config describes (checked above).
        unsafe { self.blas.gemm(cfg, b, a, c) }.map_err(blas_err("cublasSgemm"))
    }
}
