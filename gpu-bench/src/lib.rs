//! The tuning and measuring programs beside gpu-kernels (what `swz tune` runs): sweeps of the GEMM and Hopper
//! variants against cuBLAS in interleaved rounds, the Hopper shape report, the peak-probe rounds, the HBM read
//! probe, the nvidia-smi clock sampler, the matmul-L2 and stencil sweeps, and the Nsight Compute runs that hold the
//! bank model against the hardware (`swz profile`). gpu-kernels itself is the runtime, the
//! frame and the kernel families; a user who depends on it compiles none of this.

/// The mma.sync GEMM's measurement programs.
pub mod gemm {
    pub mod bench;
    pub mod tune;
}

/// The Hopper GEMM's tuning sweep and shape report.
pub mod hopper {
    pub mod shapes;
    pub mod tune;
}

pub mod fragments;
pub mod hbm_read;
pub mod matmul_l2;
pub mod ncu;
pub mod smi;
pub mod stencil;
