//! Host-only checks of gpu-kernels through its public API (no GPU, no driver): specs, launch geometry, generated
//! headers, the planner's picks, host references and element codecs. One test binary, one module per library
//! module; tests of private items stay beside them in `src/`.

mod elem;
mod elem_e4m3;
mod fp8_reference;
mod fp8_scale;
mod fragments;
mod gemm;
mod gemm_family;
mod gemm_spec;
mod hopper;
mod hopper_check;
mod hopper_family;
mod hopper_fp8;
mod hopper_layouts;
mod hopper_planned;
mod hopper_spec;
mod matmul_l2;
mod matmul_l2_family;
mod registry;
mod runtime_cache;
mod runtime_nvrtc;
mod runtime_tma;
mod stencil;
mod stencil_family;
mod stencil_smem;
mod transpose;
mod transpose_family;
mod transpose_smem;
