use gpu_kernels::frame::*;
use gpu_kernels::gemm::family::*;
use gpu_kernels::gemm::*;
use gpu_kernels::Elem;

/// The family's accesses are the spec's six; the swizzled specs are conflict-free, the unswizzled baseline
/// conflicts, and only the baselines are allowed to.
#[test]
fn accesses_and_verdicts() {
    for v in GEMM.specs() {
        let acc = GEMM.accesses(&v);
        assert_eq!(acc.len(), 6);
        let conflicts: u64 = acc
            .iter()
            .map(|a| a.access.report(&a.smem).conflicts())
            .sum();
        let unswizzled = v.spec.smem == gpu_kernels::gemm::SmemKind::Unswizzled;
        if unswizzled {
            assert!(conflicts > 0, "{v}");
        }
        if acc.iter().all(|a| a.conflict_free) {
            assert_eq!(conflicts, 0, "{v}");
        } else {
            assert!(spec::BASELINES.iter().any(|b| b.name == v.spec.name), "{v}");
        }
    }
}

/// Every verification size keeps 16-byte rows for both B layouts (the kernel refuses the others), and the
/// reference is the plain product.
#[test]
fn sizes_are_launchable_and_reference_is_a_product() {
    for v in GEMM.specs() {
        for s in Family::verify_sizes(&GEMM) {
            GEMM.launch(&v, s)
                .unwrap_or_else(|e| panic!("{v} {s}: {e}"));
        }
    }
    let v = Variant::new(spec::DEFAULT, BLayout::Nk, Elem::F16, Elem::F16);
    let s = Size::mnk(2, 8, 16);
    let a = HostBuf::from_f64(
        Elem::F16,
        &(0..32).map(|i| (i % 5) as f64).collect::<Vec<_>>(),
    );
    let b = HostBuf::from_f64(
        Elem::F16,
        &(0..128).map(|i| (i % 3) as f64).collect::<Vec<_>>(),
    );
    let c = GEMM.reference(&v, s, &[a.clone(), b.clone()])[0].to_f64();
    let (a, b) = (a.to_f64(), b.to_f64());
    // C[1][3] = sum_k A[1][k] * B[3][k] (B stored N x K).
    let want: f64 = (0..16).map(|k| a[16 + k] * b[3 * 16 + k]).sum();
    assert_eq!(c[8 + 3], want);
    // B stored K x N: C[1][3] = sum_k A[1][k] * B[k][3].
    let kn = Variant::new(spec::DEFAULT, BLayout::Kn, Elem::F16, Elem::F16);
    let b16 = HostBuf::from_f64(Elem::F16, &b);
    let c = GEMM.reference(&kn, s, &[HostBuf::from_f64(Elem::F16, &a), b16])[0].to_f64();
    let want: f64 = (0..16).map(|k| a[16 + k] * b[k * 8 + 3]).sum();
    assert_eq!(c[8 + 3], want);
}
