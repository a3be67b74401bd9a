//! The peer: cuBLAS `cublasGemmEx` on the same buffers (16-bit in and out, fp32 compute), for speed ratios and
//! as the reference at sizes too large for the host.
//!
//! cuBLAS is column-major. Our row-major `C (M x N) = A (M x K) * B^T` with B stored N x K is, read column-major,
//! `C^T (N x M) = B_cm^T * A_cm` where `B_cm` (K x N) and `A_cm` (K x M) are the same bytes: `transa = T`,
//! `transb = N`, `m = N`, `n = M`, `k = K`, `lda = ldb = K`, `ldc = N` (the "TN" call).

use super::spec::Half;
use crate::runtime::{Error, Gpu, Result};
use cudarc::cublas::{result as blas, sys as bsys, CudaBlas};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};

/// A cuBLAS handle on the GPU's stream.
pub struct Cublas {
    blas: CudaBlas,
}

impl Cublas {
    pub fn new(gpu: &Gpu) -> Result<Cublas> {
        let blas = CudaBlas::new(gpu.stream().clone())
            .map_err(|e| Error::Invalid(format!("cuBLAS handle: {e:?}")))?;
        Ok(Cublas { blas })
    }

    /// Queue `c = a * b^T` like [`super::HopperGemm::launch`].
    pub fn gemm(
        &self,
        gpu: &Gpu,
        ty: Half,
        a: &CudaSlice<u16>,
        b: &CudaSlice<u16>,
        c: &mut CudaSlice<u16>,
        (m, n, k): (u32, u32, u32),
    ) -> Result<()> {
        let dt = match ty {
            Half::Bf16 => bsys::cudaDataType_t::CUDA_R_16BF,
            Half::F16 => bsys::cudaDataType_t::CUDA_R_16F,
        };
        let (alpha, beta) = (1.0f32, 0.0f32);
        let stream = gpu.stream();
        let (pa, _ga) = a.device_ptr(stream);
        let (pb, _gb) = b.device_ptr(stream);
        let (pc, _gc) = c.device_ptr_mut(stream);
        // SAFETY: the pointers cover m*k, n*k and m*n elements (the caller's buffers for this problem); alpha and
        // beta are host f32 as CUBLAS_COMPUTE_32F expects in the default pointer mode.
        unsafe {
            blas::gemm_ex(
                *self.blas.handle(),
                bsys::cublasOperation_t::CUBLAS_OP_T,
                bsys::cublasOperation_t::CUBLAS_OP_N,
                n as i32,
                m as i32,
                k as i32,
                &alpha as *const f32 as *const _,
                pb as *const _,
                dt,
                k as i32,
                pa as *const _,
                dt,
                k as i32,
                &beta as *const f32 as *const _,
                pc as *mut _,
                dt,
                n as i32,
                bsys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                bsys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(|e| Error::Invalid(format!("cublasGemmEx {m}x{n}x{k}: {e:?}")))
    }
}
