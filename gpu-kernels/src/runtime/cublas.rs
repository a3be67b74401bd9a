//! The one cuBLAS wrapper: every family's peer (the frame's benchmark tables, the GEMM and Hopper checks and
//! lineups, the L2-order matmul) calls cuBLAS through [`Cublas::gemm`], with one error mapping
//! ([`Error::Cublas`]). FP8 goes through cuBLASLt ([`lt`]: `cublasLtMatmul`, e4m3 in, scale pointers and modes),
//! with the same error mapping.
//!
//! Everything here is row-major, like our kernels: `C (m x n) = A (m x k) · B`, B stored `k x n`
//! ([`GemmCall::b_nk`] false) or `n x k` (true), each with a leading dimension in elements. cuBLAS is
//! column-major; the same bytes read column-major are the transposes, so the call is `C^T = op(B)^T · A^T`:
//! cuBLAS's `m = n`, `n = m`, B goes first (transposed when stored `n x k`), A second, untransposed.
//!
//! The handle's math mode is `CUBLAS_DEFAULT_MATH`, set explicitly: fp32 inputs are computed in fp32, never TF32
//! (the GPU test `cublas_sgemm_is_fp32` checks it at fp32 tolerance, which TF32 would fail).

pub mod lt;
pub use lt::{CublasLt, Fp8Call, Fp8Plan};

use crate::runtime::{Error, Gpu, Result};
use cudarc::cublas::{result as blas, sys, CudaBlas};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use std::sync::Arc;
use swizzle_core::Elem;
use swizzle_core::Size;

/// One `gemmEx` call in row-major terms: sizes, B's storage, leading dimensions (elements) and element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmCall {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    /// B stored `n x k` (the "TN" GEMM) instead of `k x n`.
    pub b_nk: bool,
    pub lda: u32,
    pub ldb: u32,
    pub ldc: u32,
    /// Element type of A and B (the compute type is its accumulator, [`Elem::accumulator`]).
    pub ab: Elem,
    /// Element type of C.
    pub c: Elem,
}

impl GemmCall {
    /// Tight row-major `A (m x k) · B (k x n) -> C (m x n)`.
    pub const fn row_major(size: Size, ab: Elem, c: Elem) -> GemmCall {
        let Size { m, n, k } = size;
        GemmCall {
            m,
            n,
            k,
            b_nk: false,
            lda: k,
            ldb: n,
            ldc: n,
            ab,
            c,
        }
    }

    /// Tight row-major `A (m x k) · B^T` with B stored `n x k`.
    pub const fn tn(size: Size, ab: Elem, c: Elem) -> GemmCall {
        GemmCall {
            b_nk: true,
            ldb: size.k,
            ..GemmCall::row_major(size, ab, c)
        }
    }

    /// Bytes each operand must hold: `(A, B, C)` = rows times leading dimension times element size.
    pub const fn bytes(&self) -> (usize, usize, usize) {
        let b_rows = if self.b_nk { self.n } else { self.k };
        (
            self.m as usize * self.lda as usize * self.ab.bytes() as usize,
            b_rows as usize * self.ldb as usize * self.ab.bytes() as usize,
            self.m as usize * self.ldc as usize * self.c.bytes() as usize,
        )
    }
}

impl std::fmt::Display for GemmCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let b = if self.b_nk { "tn" } else { "nn" };
        write!(
            f,
            "{}x{}x{} {b} {}->{}",
            self.m, self.n, self.k, self.ab, self.c
        )
    }
}

fn data_type(e: Elem) -> Result<sys::cudaDataType_t> {
    use sys::cudaDataType_t as T;
    Ok(match e.name() {
        "f16" => T::CUDA_R_16F,
        "bf16" => T::CUDA_R_16BF,
        "f32" => T::CUDA_R_32F,
        "f64" => T::CUDA_R_64F,
        "i8" => T::CUDA_R_8I,
        "i32" => T::CUDA_R_32I,
        _ => {
            return Err(Error::Invalid(format!(
                "no cuBLAS data type for {e} (f16, bf16, f32, f64, i8, i32)"
            )))
        }
    })
}

/// The compute type of `ab`'s accumulator and the scalars 1 and 0 in it (little-endian, 8 bytes).
fn compute(ab: Elem) -> (sys::cublasComputeType_t, [u8; 8], [u8; 8]) {
    let widen = |b: [u8; 4]| [b[0], b[1], b[2], b[3], 0, 0, 0, 0];
    match ab.accumulator().name() {
        "f64" => (
            sys::cublasComputeType_t::CUBLAS_COMPUTE_64F,
            1f64.to_le_bytes(),
            0f64.to_le_bytes(),
        ),
        "i32" => (
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32I,
            widen(1i32.to_le_bytes()),
            [0; 8],
        ),
        _ => (
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            widen(1f32.to_le_bytes()),
            [0; 8],
        ),
    }
}

fn blas_err(what: &'static str) -> impl Fn(blas::CublasError) -> Error {
    move |e| Error::Cublas {
        what: what.to_string(),
        detail: format!("{e:?}"),
    }
}

/// The same mapping for cuBLASLt's status codes.
fn blas_err_lt(what: &'static str) -> impl Fn(cudarc::cublaslt::result::CublasError) -> Error {
    move |e| Error::Cublas {
        what: what.to_string(),
        detail: format!("{e:?}"),
    }
}

/// `Ok` when `present` (the dlopen probe of `lib` found it), else the one-line error that names the library.
fn require_library(present: bool, lib: &str) -> Result<()> {
    if present {
        return Ok(());
    }
    Err(Error::Cublas {
        what: "dlopen".into(),
        detail: format!("{lib} not found (add the CUDA toolkit's lib64 to LD_LIBRARY_PATH)"),
    })
}

/// A cuBLAS handle on the GPU's stream.
pub struct Cublas {
    blas: CudaBlas,
    stream: Arc<CudaStream>,
}

impl Cublas {
    /// A handle on `gpu`'s stream, default (no TF32) math. Fails, never panics, without libcublas.
    pub fn new(gpu: &Gpu) -> Result<Cublas> {
        // SAFETY: only dlopen-probes the library.
        require_library(unsafe { sys::is_culib_present() }, "libcublas")?;
        let stream = gpu.stream().clone();
        let blas = CudaBlas::new(stream.clone()).map_err(blas_err("cublasCreate"))?;
        // SAFETY: the handle is live; the mode is a valid enum value.
        unsafe { sys::cublasSetMathMode(*blas.handle(), sys::cublasMath_t::CUBLAS_DEFAULT_MATH) }
            .result()
            .map_err(blas_err("cublasSetMathMode"))?;
        Ok(Cublas { blas, stream })
    }

    /// Queue `c = a · b` as `call` describes, on any device buffers (their element type is `call`'s; the
    /// buffers are checked to hold the bytes the call reads and writes).
    pub fn gemm<A, B, C>(
        &self,
        call: &GemmCall,
        a: &CudaSlice<A>,
        b: &CudaSlice<B>,
        c: &mut CudaSlice<C>,
    ) -> Result<()> {
        let (ab_t, c_t) = (data_type(call.ab)?, data_type(call.c)?);
        let (need_a, need_b, need_c) = call.bytes();
        let bytes = |len: usize, size: usize| len * size;
        let b_cols = if call.b_nk { call.k } else { call.n };
        if bytes(a.len(), size_of::<A>()) < need_a
            || bytes(b.len(), size_of::<B>()) < need_b
            || bytes(c.len(), size_of::<C>()) < need_c
            || call.lda < call.k
            || call.ldb < b_cols
            || call.ldc < call.n
            || [call.m, call.n, call.k, call.lda, call.ldb, call.ldc]
                .iter()
                .any(|&x| x == 0 || x > i32::MAX as u32)
        {
            return Err(Error::Invalid(format!(
                "cuBLAS gemm {call}: buffers too small or sizes out of range"
            )));
        }
        let (compute, one, zero) = compute(call.ab);
        let transa = if call.b_nk {
            sys::cublasOperation_t::CUBLAS_OP_T
        } else {
            sys::cublasOperation_t::CUBLAS_OP_N
        };
        let (pa, _ga) = a.device_ptr(&self.stream);
        let (pb, _gb) = b.device_ptr(&self.stream);
        let (pc, _gc) = c.device_ptr_mut(&self.stream);
        // SAFETY: the buffers hold at least the bytes the sizes and leading dimensions describe (checked above);
        // the scalars are host values of the compute type (default pointer mode) alive for the enqueueing call.
        unsafe {
            blas::gemm_ex(
                *self.blas.handle(),
                transa,
                sys::cublasOperation_t::CUBLAS_OP_N,
                call.n as i32,
                call.m as i32,
                call.k as i32,
                one.as_ptr() as *const _,
                pb as *const _,
                ab_t,
                call.ldb as i32,
                pa as *const _,
                ab_t,
                call.lda as i32,
                zero.as_ptr() as *const _,
                pc as *mut _,
                c_t,
                call.ldc as i32,
                compute,
                sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(blas_err("cublasGemmEx"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_describe_their_operands() {
        let c = GemmCall::tn(Size::mnk(3, 5, 8), Elem::F16, Elem::F32);
        assert_eq!((c.lda, c.ldb, c.ldc), (8, 8, 5));
        assert_eq!(c.bytes(), (3 * 8 * 2, 5 * 8 * 2, 3 * 5 * 4));
        let r = GemmCall::row_major(Size::mnk(3, 5, 8), Elem::F32, Elem::F32);
        assert_eq!((r.lda, r.ldb, r.ldc, r.b_nk), (8, 5, 5, false));
        assert_eq!(r.bytes().1, 8 * 5 * 4);
        assert_eq!(r.to_string(), "3x5x8 nn f32->f32");
        assert!(data_type(Elem::F16).is_ok());
        assert_eq!(
            compute(Elem::BF16).0,
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F
        );
    }
}
