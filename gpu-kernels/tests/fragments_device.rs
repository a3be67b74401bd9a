//! The four tensor-core fragment problems on the GPU against host references, through the frame's verification runner:
//! seeded random inputs (1.1: a random row-stochastic matrix), outputs poisoned with 0xFF, shipped layouts and the
//! unswizzled baselines (same kernels, identity layouts: same answers). 1.1 runs with n in 1, 2, 3, 7, 16, 64,
//! 100 (the sizes are `16x16xn`).

use gpu_kernels::fragments::{Problem, Variant, FRAGMENTS, SPECS};
use gpu_kernels::frame::{verify, Family, Size};

mod common;
use common::gpu;

fn check(problem: Problem) {
    let gpu = gpu();
    let mut failures = Vec::new();
    for v in [Variant::shipped(problem), Variant::baseline(problem)] {
        for size in FRAGMENTS.verify_sizes() {
            if let Err(e) = verify::verify(&gpu, &FRAGMENTS, &v, size) {
                failures.push(e.to_string());
            }
        }
    }
    common::assert_no_failures(&failures);
}

// One test per problem.
common::gpu_cases! {
    power_1_1: check(Problem::Power);
    halves_1_2: check(Problem::Halves);
    two_modes_2_1: check(Problem::TwoModes);
    interleaved_3_1: check(Problem::Interleaved);
}

/// The whole family through the registry (what `swz report` runs), and one launch of every variant for
/// compute-sanitizer (memcheck, racecheck, synccheck).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn sanitizer_pass() {
    let gpu = gpu();
    for v in SPECS {
        verify::verify(&gpu, &FRAGMENTS, &v, Size::mnk(16, 16, 3))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
