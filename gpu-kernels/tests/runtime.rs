//! Runs everywhere (CI has no GPU): opening a device never panics, and without a driver the error says so.

use gpu_kernels::{gpu_available, Error, Gpu};

#[test]
fn opening_a_device_never_panics() {
    match Gpu::open(0) {
        Ok(gpu) => {
            assert!(gpu_available());
            assert!(gpu.props().sm_count > 0);
        }
        Err(Error::NoDriver) => {
            assert!(!gpu_available());
            assert!(Error::NoDriver
                .to_string()
                .starts_with("no CUDA driver found"));
        }
        Err(e) => assert!(gpu_available(), "driver absent but got {e}"),
    }
}
