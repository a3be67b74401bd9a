//! The tuning and measuring programs beside gpu-kernels: the timing harness ([`bench`](mod@bench): rotated buffers, CUDA
//! events, medians, interleaved rounds, tables and reports), `swz bench`'s tables over every registered family
//! ([`tables`]), and what `swz tune` runs: sweeps of the GEMM and Hopper
//! variants against cuBLAS in interleaved rounds, the Hopper shape report, the e4m3 GEMM against cuBLASLt's FP8
//! (`swz bench gemm --dtype e4m3`), the peak-probe rounds, the HBM read probe, the nvidia-smi clock sampler, the
//! matmul-L2 and stencil sweeps, and the Nsight Compute runs that hold the bank model against the hardware
//! (`swz profile`), and the progress bars of long runs ([`progress`]). gpu-kernels itself is the runtime, the frame and the kernel families; a user who depends on it
//! compiles none of this.

/// `eprintln!` for the tuning tools' progress lines, without its panic: a stderr that cannot be written
/// (`2>/dev/full`) loses the line, not the run or its exit status.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// The mma.sync GEMM's measurement programs and the mma.sync ceiling probe.
pub mod gemm {
    pub mod bench;
    pub mod check;
    pub mod ldsm;
    pub mod peak;
    pub mod tune;
}

/// The Hopper GEMM's tuning sweep and shape report, and the e4m3 GEMM against cuBLASLt's FP8.
pub mod hopper {
    pub mod chain;
    pub mod fp8_bench;
    pub mod fp8_sustained;
    pub mod fp8_sweep;
    pub mod operands;
    pub mod shapes;
    pub mod tune;
}

pub mod bench;
pub mod fragments;
pub mod hbm_read;
pub mod matmul_l2;
pub mod ncu;
pub mod profile;
pub mod progress;
pub mod smi;
pub mod stencil;
pub mod tables;
