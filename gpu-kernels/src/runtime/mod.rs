//! The runtime layer, read bottom-up as cudarc's `sys -> result -> safe`: [`error`] (one error type),
//! [`nvrtc`] (source + named headers -> CUBIN), [`device`] (open a GPU, its properties, the module cache, launch,
//! memory, event timing), [`library`] (is the driver or NVRTC usable, before cudarc touches it), [`cache`] (the compile cache, in memory and optionally on disk), [`cublas`] (the one cuBLAS wrapper, every family's GEMM peer).

pub mod cache;
pub mod cublas;
pub mod device;
pub mod error;
pub mod library;
pub mod nvrtc;
pub mod tma;

pub use cublas::{Cublas, CublasLt, Fp8Call, GemmCall};
pub use device::{gpu_available, CompileJob, DeviceProps, Gpu, Kernel, KernelArgs};
pub use error::{Error, Result};
pub use library::Library;
pub use nvrtc::{compile, nvrtc_available, Compiled, Header, Source, DEVICE_HEADERS};
