//! gpu-kernels: a small runtime over cudarc (device, NVRTC compile cache, launch, timing) and the kernels.

/// True when an NVIDIA driver library can be loaded. Never panics (cudarc panics if libcuda is missing, so this
/// probes first).
pub fn gpu_available() -> bool {
    // SAFETY: only dlopen-probes the driver library; it loads nothing into use and has no preconditions.
    unsafe { cudarc::driver::sys::is_culib_present() }
}
