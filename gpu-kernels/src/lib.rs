//! gpu-kernels: a small runtime over cudarc (device, NVRTC compile cache, launch, timing), a benchmark harness,
//! and the kernel families, each kernel's `.cu` source beside the Rust that launches and checks it.
//!
//! Layers, bottom-up: [`runtime`] (errors, NVRTC, the device) -> [`bench`](mod@bench) (the timing harness) ->
//! [`frame`] (the [`Family`](frame::Family) trait, generic verification, benchmarks with a peer, profiler
//! comparison, the registry) -> one module per family ([`transpose`], [`fragments`], [`stencil`], [`matmul_l2`],
//! [`hopper`], [`gemm`]). The new-family checklist is in [`frame`].

/// `eprintln!` for the tuning tools' progress lines, without its panic: a stderr that cannot be written
/// (`2>/dev/full`) loses the line, not the run or its exit status.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod bench;
pub mod elem;
pub mod fp8;
pub mod fragments;
pub mod frame;
pub mod gemm;
pub mod hopper;
pub mod matmul_l2;
pub mod progress;
pub mod runtime;
pub mod size;
pub mod stencil;
pub mod transpose;

pub use elem::{Elem, HostElem};
pub use runtime::{gpu_available, nvrtc_available, DeviceProps, Error, Gpu, Result};
pub use size::Size;
