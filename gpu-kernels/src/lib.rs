//! gpu-kernels: a small runtime over cudarc (device, NVRTC compile cache, launch, timing events) and the kernel
//! families, each kernel's `.cu` source beside the Rust that launches and checks it.
//!
//! Layers, bottom-up: [`runtime`] (errors, NVRTC, the device) -> [`frame`] (the [`Family`](frame::Family) trait,
//! generic verification, what a benchmark measures and against which peer) -> one module
//! per family ([`transpose`], [`fragments`], [`stencil`], [`matmul_l2`], [`hopper`], [`gemm`]) -> [`registry`]
//! (every family, by name). The new-family checklist is in [`frame`]. The measuring programs (the timing
//! harness, `swz bench`'s tables, `swz tune`, `swz l2-study`) are the gpu-bench crate beside this one.

pub mod elem;
pub mod fp8;
pub mod fragments;
pub mod frame;
pub mod gemm;
pub mod hopper;
pub mod matmul_l2;
pub mod registry;
pub mod runtime;
pub mod stencil;
pub mod transpose;

pub use elem::{Elem, HostElem};
pub use runtime::{gpu_available, nvrtc_available, DeviceProps, Error, Gpu, Result};
pub use swizzle_core::Size;
