use gpu_kernels::gemm::*;
use gpu_kernels::{Elem, Size};

#[test]
fn variants_outside_the_kernels_types_are_refused_before_compiling() {
    let ok = Variant::new(spec::DEFAULT, BLayout::Nk, Elem::BF16, Elem::F32);
    assert!(ok.check_types().is_ok());
    let e = Variant::new(spec::DEFAULT, BLayout::Nk, Elem::F32, Elem::F32)
        .check_types()
        .unwrap_err()
        .to_string();
    assert!(e.contains("gemm input: element type f32"), "{e}");
    let e = Variant::new(spec::DEFAULT, BLayout::Nk, Elem::F16, Elem::I32)
        .check_types()
        .unwrap_err()
        .to_string();
    assert!(e.contains("gemm output: element type i32"), "{e}");
    assert_eq!(OutWidth::of(Elem::F32), OutWidth::F32);
    assert_eq!(OutWidth::of(Elem::BF16), OutWidth::B16);
}

#[test]
fn misaligned_leading_dimensions_are_refused_before_launch() {
    let p = Problem::new(Size::mnk(17, 33, 48), BLayout::Kn);
    let e = p.validate(Elem::F16).unwrap_err().to_string();
    assert!(
        e.contains("ldb = 33 elements (66 bytes) is not a multiple of 16 bytes"),
        "{e}"
    );
    let ok = p.padded(8, 8);
    assert_eq!((ok.lda, ok.ldb, ok.ldc), (48, 40, 40));
    ok.validate(Elem::F16).unwrap();
    let e = Problem::new(Size::mnk(64, 64, 20), BLayout::Nk)
        .validate(Elem::F32)
        .unwrap_err()
        .to_string();
    assert!(e.contains("lda = 20"), "{e}");
    assert!(Problem::new(Size::mnk(0, 8, 8), BLayout::Nk)
        .validate(Elem::F32)
        .is_err());
    let mut short = Problem::new(Size::mnk(8, 8, 8), BLayout::Nk);
    short.ldc = 4;
    assert!(short
        .validate(Elem::F32)
        .unwrap_err()
        .to_string()
        .contains("smaller"));
}

#[test]
fn header_carries_the_spec() {
    let v = Variant::new(spec::DEFAULT, BLayout::Kn, Elem::BF16, Elem::F32);
    let h = header(&v.spec, v.b, v.input, v.out).render();
    assert!(
        h.contains("struct SmemA {\n        using Sw = swz::Swizzle<2, 3, 3>;"),
        "{h}"
    );
    assert!(
        h.contains("struct SmemB {\n        using Sw = swz::Swizzle<3, 3, 5>;"),
        "{h}"
    );
    assert!(
        h.contains("struct SmemC {\n        using Sw = swz::Swizzle<2, 3, 3>;"),
        "{h}"
    );
    assert!(
        [
            "static constexpr int B_KN = 1;",
            "static constexpr int IN_BF16 = 1;",
            "static constexpr int OUT_KIND = 2;",
            "static constexpr int OUT_BYTES = 4;"
        ]
        .iter()
        .all(|c| h.contains(c)),
        "{h}"
    );
    assert!(h.contains("struct GemmOrder"), "{h}");
    let u = header(&spec::UNSWIZZLED, BLayout::Nk, Elem::F16, Elem::F16).render();
    assert!(u.contains("using Sw = swz::Swizzle<0, 0, 0>;"));
    let pd = header(&spec::PADDED, BLayout::Nk, Elem::F16, Elem::F16).render();
    assert!(pd.contains("cols = 32u, pitch = 40u"), "{pd}");
}

#[test]
fn launch_grid_covers_the_tiles() {
    for s in spec::all() {
        let v = Variant::new(s, BLayout::Nk, Elem::F16, Elem::F16);
        for (m, n) in [(1, 1), (127, 255), (4096, 4096), (16384, 128)] {
            let p = Problem::new(Size::mnk(m, n, 64), BLayout::Nk);
            let cfg = v.launch_config(&p).unwrap();
            let blocks = cfg.grid_dim.0 as u64 * cfg.grid_dim.1 as u64;
            let tiles = m.div_ceil(s.bm) as u64 * n.div_ceil(s.bn) as u64;
            assert!(blocks >= tiles, "{s} {m}x{n}");
            assert_eq!(cfg.block_dim.0, s.threads());
        }
    }
}
