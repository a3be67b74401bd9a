use gpu_kernels::frame::{Family, Size};
use gpu_kernels::registry::*;
use gpu_kernels::transpose::family::TRANSPOSE;

#[test]
fn the_registered_families_have_the_optional_parts_they_use() {
    for f in FAMILIES {
        let plans = f.planned_list(Size::mnk(256, 4096, 4096)).unwrap();
        assert_eq!(plans.is_some(), f.name() == "hopper", "{}", f.name());
    }
    // Every registered family benchmarks against its peer; only the transpose has a smem-only build.
    assert!(TRANSPOSE.as_bench().is_some() && TRANSPOSE.as_profile().is_some());
    assert!(gpu_kernels::fragments::FRAGMENTS.as_bench().is_some());
    assert!(gpu_kernels::stencil::family::STENCIL.as_bench().is_some());
    assert!(gpu_kernels::matmul_l2::family::MATMUL_L2
        .as_bench()
        .is_some());
    assert!(gpu_kernels::hopper::family::HOPPER.as_bench().is_some());
    let gemm = &gpu_kernels::gemm::family::GEMM;
    assert!(gemm.as_bench().is_some() && gemm.as_profile().is_none() && gemm.as_plan().is_none());
}

/// A side `n` (`--sizes N`, `--n N`) is the cube for the GEMM families, profiled at 512; `n x n` for the
/// others, profiled at 2048 (the stencil's problems are rows, `1 x n`).
#[test]
fn a_side_is_a_cube_for_the_gemm_families() {
    for f in FAMILIES {
        let (size, side) = (f.size_of(96), f.profile_side());
        let want = match f.name() {
            "gemm" | "hopper" | "matmul-l2" => (Size::mnk(96, 96, 96), 512),
            "stencil" => (Size::mn(1, 96), 2048),
            _ => (Size::mn(96, 96), 2048),
        };
        assert_eq!((size, side), want, "{}", f.name());
    }
}
