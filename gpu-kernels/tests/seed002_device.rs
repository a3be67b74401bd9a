//! Seed 002's four problems on the GPU against host references: random inputs (fresh seeds per run), poisoned
//! outputs, shipped layouts and the unswizzled baselines (same kernels, identity layouts: same answers).

use gpu_kernels::seed002::{self, Problem, Variant};
use gpu_kernels::Gpu;

fn gpu() -> Gpu {
    Gpu::open(0).unwrap_or_else(|e| panic!("this test needs an NVIDIA GPU and driver: {e}"))
}

fn check(gpu: &Gpu, v: Variant, n: u32, seed: u64) -> Option<String> {
    let outs = seed002::run(gpu, v, n, seed).unwrap_or_else(|e| panic!("{}: {e}", v.name()));
    let tol = seed002::tolerance(v.problem);
    for (i, (got, want)) in outs.iter().enumerate() {
        let err = seed002::max_rel_err(got, want);
        eprintln!(
            "{} n={n} seed={seed} output {i}: max rel err {err:.2e} (tolerance {tol:.0e})",
            v.name()
        );
        if !(err <= tol) {
            return Some(format!(
                "{} n={n} seed={seed} output {i}: {err:.3e} > {tol:.0e}",
                v.name()
            ));
        }
    }
    None
}

fn check_all(problem: Problem, ns: &[u32]) {
    let gpu = gpu();
    let mut failures = Vec::new();
    for v in [Variant::shipped(problem), Variant::baseline(problem)] {
        for &n in ns {
            for seed in [1u64, 2, 3] {
                failures.extend(check(&gpu, v, n, seed * 7919 + n as u64));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn power_1_1() {
    check_all(Problem::Power, &[1, 2, 3, 7, 16, 64, 100]);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn halves_1_2() {
    check_all(Problem::Halves, &[1]);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn two_modes_2_1() {
    check_all(Problem::TwoModes, &[1]);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn interleaved_3_1() {
    check_all(Problem::Interleaved, &[1]);
}

/// One launch of every variant, for compute-sanitizer (memcheck, racecheck, synccheck).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn sanitizer_pass() {
    let gpu = gpu();
    for v in Variant::all() {
        assert_eq!(check(&gpu, v, 3, 11), None);
    }
}
