//! cuBLASLt's FP8 GEMM: the peer of the FP8 kernels, through the same error mapping as [`super::Cublas`].
//!
//! The problem is ours, row-major: `C (M x N) = A (M x K) · Bᵀ`, A and B e4m3 stored K-major (B `N x K`), fp32
//! accumulation, C in bf16, fp16 or fp32, scales as [`Scales`] describes them. cuBLASLt is column-major and
//! takes FP8 only as "TN" (both operands K-major), which is what our layout is when read column-major with the
//! operands swapped: cuBLASLt's A is our B (`K x N`, ld K, transposed), its B is our A (`K x M`, ld K), its D
//! is our C (`N x M`, ld N). So cuBLASLt's A scale is our B's, and its B scale is our A's.
//!
//! Scaling modes, as cuBLASLt names them (CUDA 12.9+ `CUBLASLT_MATMUL_DESC_{A,B}_SCALE_MODE`):
//!
//! ```text
//!   tensor   SCALAR_32F on both (the scale pointers of every CUDA 12 cuBLASLt)
//!   row      OUTER_VEC_32F on both: N values for cuBLASLt's A (our B), M for its B (our A)
//!   block    BLK128x128_32F for cuBLASLt's A (our B), VEC128_32F for its B (our A)
//! ```
//!
//! Whether a GPU runs a mode is the library's answer: [`CublasLt::fp8_plan`] asks for an algorithm and returns
//! cuBLASLt's status when there is none (on an H100 with CUDA 13.0 only per-tensor planned: the row and block
//! modes gave `CUBLAS_STATUS_INVALID_VALUE`). Fast accumulation (`CUBLASLT_MATMUL_DESC_FAST_ACCUM`) is off unless
//! [`Fp8Call::fast_accum`] asks for it, as in torch's `_scaled_mm` default: cuBLASLt then promotes the tensor
//! core's partial sums into fp32 as it goes.

use super::blas_err_lt as lt_err;
use crate::fp8::{ScaleMode, Scales};
use crate::runtime::{Error, Gpu, Result};
use crate::Size;
use cudarc::cublaslt::{result as lt, sys};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use std::ffi::c_void;
use std::sync::Arc;
use swizzle_core::Elem;

/// cuBLASLt's workspace on Hopper (NVIDIA's recommendation: 32 MiB).
const WORKSPACE_BYTES: usize = 32 << 20;

/// One FP8 GEMM as cuBLASLt plans it: the problem, its scaling and C's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp8Call {
    pub size: Size,
    pub mode: ScaleMode,
    /// bf16, f16 or f32.
    pub out: Elem,
    /// `CUBLASLT_MATMUL_DESC_FAST_ACCUM`: leave the partial sums in the tensor core's limited-precision
    /// accumulator for the whole K loop (what the per-tensor and per-row kernels of this crate do) instead of
    /// promoting them into fp32 as cuBLASLt does by default.
    pub fast_accum: bool,
}

impl Fp8Call {
    /// `size` in `mode`, bf16 out, cuBLASLt's default (promoting) accumulation.
    pub const fn new(size: Size, mode: ScaleMode) -> Fp8Call {
        Fp8Call {
            size,
            mode,
            out: Elem::BF16,
            fast_accum: false,
        }
    }
}

impl std::fmt::Display for Fp8Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} e4m3->{} per-{} scaling{}",
            self.size,
            self.out,
            self.mode,
            if self.fast_accum {
                ", fast accumulation"
            } else {
                ""
            }
        )
    }
}

fn out_type(e: Elem) -> Result<sys::cudaDataType> {
    use sys::cudaDataType as T;
    Ok(match e.name() {
        "bf16" => T::CUDA_R_16BF,
        "f16" => T::CUDA_R_16F,
        "f32" => T::CUDA_R_32F,
        _ => {
            return Err(Error::Invalid(format!(
                "cuBLASLt FP8: no {e} output (bf16, f16 or f32)"
            )))
        }
    })
}

/// cuBLASLt's scale modes for `mode`: (its A = our B, its B = our A).
fn lt_modes(
    mode: ScaleMode,
) -> (
    sys::cublasLtMatmulMatrixScale_t,
    sys::cublasLtMatmulMatrixScale_t,
) {
    use sys::cublasLtMatmulMatrixScale_t as S;
    match mode {
        ScaleMode::Tensor => (
            S::CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F,
            S::CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F,
        ),
        ScaleMode::Row => (
            S::CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F,
            S::CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F,
        ),
        ScaleMode::Block => (
            S::CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F,
            S::CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F,
        ),
    }
}

/// A planned FP8 call: its descriptors and the algorithm cuBLASLt's heuristic chose (planned once, so a timed
/// launch is the matmul alone).
pub struct Fp8Plan {
    pub call: Fp8Call,
    desc: sys::cublasLtMatmulDesc_t,
    layouts: [sys::cublasLtMatrixLayout_t; 3],
    algo: sys::cublasLtMatmulAlgo_t,
}

impl Drop for Fp8Plan {
    fn drop(&mut self) {
        // SAFETY: created by fp8_plan and destroyed once, here; errors on teardown are ignored.
        unsafe {
            for l in self.layouts {
                let _ = lt::destroy_matrix_layout(l);
            }
            let _ = lt::destroy_matmul_desc(self.desc);
        }
    }
}

/// A cuBLASLt handle and its workspace on the GPU's stream.
pub struct CublasLt {
    handle: sys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
    stream: Arc<CudaStream>,
}

impl Drop for CublasLt {
    fn drop(&mut self) {
        // SAFETY: the handle was created in `new` and is destroyed once.
        let _ = unsafe { lt::destroy_handle(self.handle) };
    }
}

/// Set one descriptor attribute from a plain value.
///
/// # Safety
/// `desc` is live and `T` is the attribute's documented type.
unsafe fn set_desc<T>(
    desc: sys::cublasLtMatmulDesc_t,
    attr: sys::cublasLtMatmulDescAttributes_t,
    v: &T,
) -> Result<()> {
    lt::set_matmul_desc_attribute(desc, attr, v as *const T as *const c_void, size_of::<T>())
        .map_err(lt_err("cublasLtMatmulDescSetAttribute"))
}

impl CublasLt {
    /// A handle on `gpu`'s stream with a 32 MiB workspace. Fails, never panics, without libcublasLt.
    pub fn new(gpu: &Gpu) -> Result<CublasLt> {
        // SAFETY: only dlopen-probes the library.
        super::require_library(unsafe { sys::is_culib_present() }, "libcublasLt")?;
        let handle = lt::create_handle().map_err(lt_err("cublasLtCreate"))?;
        let workspace = match gpu.zeros::<u8>(WORKSPACE_BYTES) {
            Ok(w) => w,
            Err(e) => {
                // SAFETY: just created, not shared.
                let _ = unsafe { lt::destroy_handle(handle) };
                return Err(e);
            }
        };
        Ok(CublasLt {
            handle,
            workspace,
            stream: gpu.stream().clone(),
        })
    }

    /// Descriptors and cuBLASLt's heuristic algorithm for `call`; the library's status (say
    /// `CUBLAS_STATUS_NOT_SUPPORTED`) when it has none for this GPU, mode or shape.
    pub fn fp8_plan(&self, call: Fp8Call) -> Result<Fp8Plan> {
        crate::fp8::check_dims(call.size)?;
        let d_t = out_type(call.out)?;
        let Size { m, n, k } = call.size;
        let desc = lt::create_matmul_desc(
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            sys::cudaDataType::CUDA_R_32F,
        )
        .map_err(lt_err("cublasLtMatmulDescCreate"))?;
        let mut plan = Fp8Plan {
            call,
            desc,
            layouts: [std::ptr::null_mut(); 3],
            algo: unsafe { std::mem::zeroed() },
        };
        use sys::cublasLtMatmulDescAttributes_t as D;
        let (mode_a, mode_b) = lt_modes(call.mode);
        // SAFETY: the descriptor is live; each value has the attribute's type (cublasOperation_t and the scale
        // modes are 32-bit enums, FAST_ACCUM an int8).
        unsafe {
            set_desc(desc, D::CUBLASLT_MATMUL_DESC_TRANSA, &1i32)?; // CUBLAS_OP_T
            set_desc(desc, D::CUBLASLT_MATMUL_DESC_TRANSB, &0i32)?; // CUBLAS_OP_N
            set_desc(
                desc,
                D::CUBLASLT_MATMUL_DESC_FAST_ACCUM,
                &i8::from(call.fast_accum),
            )?;
            if call.mode != ScaleMode::Tensor {
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &(mode_a as u32))?;
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &(mode_b as u32))?;
            }
        }
        let e4m3 = sys::cudaDataType::CUDA_R_8F_E4M3;
        for (slot, (t, rows, cols, ld)) in
            plan.layouts
                .iter_mut()
                .zip([(e4m3, k, n, k), (e4m3, k, m, k), (d_t, n, m, n)])
        {
            *slot = lt::create_matrix_layout(t, rows as u64, cols as u64, ld as i64)
                .map_err(lt_err("cublasLtMatrixLayoutCreate"))?;
        }
        let pref = lt::create_matmul_pref().map_err(lt_err("cublasLtMatmulPreferenceCreate"))?;
        let ws = WORKSPACE_BYTES as u64;
        // SAFETY: every descriptor is live; the preference takes a u64 workspace size; the layouts describe the
        // call (C and D share one).
        let heuristic = unsafe {
            let r = lt::set_matmul_pref_attribute(
                pref,
                sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                &ws as *const u64 as *const c_void,
                size_of::<u64>(),
            )
            .and_then(|_| {
                lt::get_matmul_algo_heuristic(
                    self.handle,
                    desc,
                    plan.layouts[0],
                    plan.layouts[1],
                    plan.layouts[2],
                    plan.layouts[2],
                    pref,
                )
            });
            let _ = lt::destroy_matmul_pref(pref);
            r
        };
        plan.algo = heuristic
            .map_err(|e| Error::Cublas {
                what: format!("cublasLtMatmulAlgoGetHeuristic ({call})"),
                detail: format!("{e:?}"),
            })?
            .algo;
        Ok(plan)
    }

    /// Queue `c = scales(a · bᵀ)` as `plan` describes. Checks the buffers' lengths and the scales' (one line,
    /// nothing queued) first.
    pub fn fp8_gemm<E, C>(
        &self,
        plan: &Fp8Plan,
        a: &CudaSlice<E>,
        b: &CudaSlice<E>,
        scales: &Scales<CudaSlice<f32>>,
        c: &mut CudaSlice<C>,
    ) -> Result<()> {
        let call = plan.call;
        if scales.mode() != call.mode {
            return Err(Error::Invalid(format!(
                "cuBLASLt FP8 planned for per-{} scaling, called with per-{} scales",
                call.mode,
                scales.mode()
            )));
        }
        scales.validate(call.size)?;
        let Size { m, n, k } = call.size;
        let (mk, nk, mn) = (
            m as usize * k as usize,
            n as usize * k as usize,
            call.size.mn_len(),
        );
        if size_of::<E>() != 1
            || a.len() < mk
            || b.len() < nk
            || c.len() * size_of::<C>() < mn * call.out.bytes() as usize
        {
            return Err(Error::Invalid(format!(
                "cuBLASLt FP8 {call}: buffers too small or not of one-byte elements"
            )));
        }
        let (sa, sb) = scales.parts();
        let (psa, _g1) = sa.device_ptr(&self.stream);
        let (psb, _g2) = sb.device_ptr(&self.stream);
        let (pa, _g3) = a.device_ptr(&self.stream);
        let (pb, _g4) = b.device_ptr(&self.stream);
        let (pc, _g5) = c.device_ptr_mut(&self.stream);
        let (pw, _g6) = self.workspace.device_ptr(&self.stream);
        let (one, zero) = (1f32, 0f32);
        use sys::cublasLtMatmulDescAttributes_t as D;
        // SAFETY: the plan's descriptors are live; the scale pointers are device pointers of the lengths the mode
        // needs (validated); a, b, c hold what the layouts describe (checked); the workspace is ours; alpha and
        // beta are host fp32 (the default pointer mode) alive for the enqueueing call.
        unsafe {
            // cuBLASLt's A is our B and its B our A (module docs).
            set_desc(plan.desc, D::CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &psb)?;
            set_desc(plan.desc, D::CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &psa)?;
            lt::matmul(
                self.handle,
                plan.desc,
                &one as *const f32 as *const c_void,
                &zero as *const f32 as *const c_void,
                pb as *const c_void,
                plan.layouts[0],
                pa as *const c_void,
                plan.layouts[1],
                pc as *const c_void,
                plan.layouts[2],
                pc as *mut c_void,
                plan.layouts[2],
                &plan.algo,
                pw as *mut c_void,
                WORKSPACE_BYTES,
                self.stream.cu_stream() as sys::cudaStream_t,
            )
        }
        .map_err(lt_err("cublasLtMatmul"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_name_their_problem_and_modes_map_to_cublaslt() {
        let c = Fp8Call::new(Size::mnk(16, 4096, 4096), ScaleMode::Row);
        assert_eq!(c.to_string(), "16x4096x4096 e4m3->bf16 per-row scaling");
        assert!(out_type(Elem::BF16).is_ok() && out_type(Elem::E4M3).is_err());
        use sys::cublasLtMatmulMatrixScale_t as S;
        assert_eq!(
            lt_modes(ScaleMode::Block),
            (
                S::CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F,
                S::CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F
            )
        );
        assert_eq!(lt_modes(ScaleMode::Tensor).0 as u32, 0);
    }
}
