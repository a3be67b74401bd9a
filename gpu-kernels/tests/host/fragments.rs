use gpu_kernels::fragments::*;
use gpu_kernels::frame::SpecAccess;
use swizzle_core::bank::Op;

fn cost(a: &SpecAccess) -> (u64, u64) {
    let r = a.access.report(&a.smem);
    (r.wavefronts, r.ideal)
}

/// Every shared-memory instruction of every shipped variant costs its ideal wavefronts (the module's const check
/// proves the same at compile time; this one also covers the access counts).
#[test]
fn shipped_variants_are_conflict_free() {
    for p in Problem::ALL {
        for (a, _) in Variant::shipped(p).uses_per_launch(4) {
            let (w, ideal) = cost(&a);
            assert_eq!(w, ideal, "{}: {} conflicts", p.name(), a.label);
        }
    }
}

/// Excess ldmatrix wavefronts of one launch.
fn ldmatrix_excess(v: Variant, n: u32) -> u64 {
    v.uses_per_launch(n)
        .iter()
        .filter(|(a, _)| matches!(a.access.op(&a.smem), Op::Ldmatrix { .. }))
        .map(|(a, times)| {
            let (w, i) = cost(a);
            (w - i) * *times as u64
        })
        .sum()
}

/// The unswizzled baselines conflict where the article's author measured it: 1.1's ldmatrix, 2.1's A+B.
#[test]
fn baselines_conflict_as_predicted() {
    // 1.1 with n = 2: one .trans load and one plain load, each 2 wavefronts a phase instead of 1.
    assert_eq!(ldmatrix_excess(Variant::baseline(Problem::Power), 2), 8);
    // 2.1: 448 excess per operand in mode 1 (8-way), 64 in mode 2 (2-way): 1024 for A+B.
    assert_eq!(
        ldmatrix_excess(Variant::baseline(Problem::TwoModes), 1),
        1024
    );
    assert_eq!(ldmatrix_excess(Variant::shipped(Problem::TwoModes), 1), 0);
    // The baselines are not claimed conflict-free (the const check skips them).
    assert!(Variant::baseline(Problem::TwoModes)
        .accesses()
        .to_vec()
        .iter()
        .all(|a| !a.conflict_free));
}

/// The host reference of 1.1 at n = 1 is A itself, and A is row-stochastic.
#[test]
fn power_reference_basics() {
    let a = stochastic16(3);
    let p1 = power_host(&a, 1);
    assert!(p1.iter().zip(&a).all(|(x, y)| *x == y.to_f32()));
    for r in 0..16 {
        let s: f32 = p1[16 * r..16 * r + 16].iter().sum();
        assert!((s - 1.0).abs() < 1e-2, "row {r} sums to {s}");
    }
    let p64 = power_host(&a, 64);
    assert!(p64.iter().all(|x| x.is_finite() && *x > 0.0 && *x < 1.0));
}
