//! FP8 GEMM arguments and checks: `C (M x N) = A (M x K) · Bᵀ` with A and B e4m3 (both K-major, B stored
//! `N x K`), fp32 accumulation, fp32 scales in one of three modes ([`ScaleMode`], [`Scales`]), a 16- or 32-bit C.
//!
//! Modules: [`scale`] (the modes as typed arguments, their lengths and the checks made before any launch),
//! [`reference`](mod@reference) (the fp64 host reference of the dequantized inputs and the element-wise error bound). The
//! element itself is [`crate::elem::E4m3`] (`Elem::E4M3`, `__nv_fp8_e4m3`).

pub mod reference;
pub mod scale;

pub use reference::{Agreement, Bound, RefValue};
pub use scale::{check_dims, ScaleBuf, ScaleMode, Scales, BLOCK};
