//! What the benchmark crate's GPU tests share: opening the device.

use gpu_kernels::Gpu;

/// Device 0, or a panic that says this test needs a GPU (a GPU test never returns early without one).
pub fn gpu() -> Gpu {
    Gpu::open(0).unwrap_or_else(|e| panic!("this test needs an NVIDIA GPU and driver: {e}"))
}
