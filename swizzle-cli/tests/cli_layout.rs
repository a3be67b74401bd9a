//! `swz emit-header --layout`, byte modes and `--unit`, and two-layer swizzles in `swz apply`, through the real
//! binary.
mod common;
use common::swz;
use swizzle_core::compose::{Composed, SwizzleFn};
use swizzle_core::cuda::Header;
use swizzle_core::{Elem, Smem, Swizzle};

#[test]
fn layout_emits_the_library_layout_type() {
    let out =
        swz("emit-header --layout X=16x256:f16:1,6,-2+3,3,5 --layout P=32x32:fp32:none:pad=4");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let two = SwizzleFn::Composed(Composed::new(Swizzle::new(1, 6, -2), Swizzle::new(3, 3, 5)));
    let expected = Header::new()
        .layout(
            "X",
            Smem::row_major(16, 256, Elem::F16).with_swizzle_fn(two),
        )
        .layout("P", Smem::row_major(32, 32, Elem::F32).with_padding(4))
        .render();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, expected);
    assert!(text.contains(
        "using X = swz::Layout<16, 256, 2, false, swz::Compose<swz::Swizzle<1, 6, -2>, swz::Swizzle<3, 3, 5>>, 2, 0>;"
    ));
    assert!(text.contains("using P = swz::Layout<32, 32, 4, false, swz::Swizzle<0, 0, 0>, 4, 4>;"));
}

#[test]
fn a_byte_mode_needs_its_unit() {
    let out = swz("emit-header --swizzle A=SW128");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("swz: --swizzle A=SW128: a byte mode acts on byte addresses"),
        "{err}"
    );
    for (unit, expected) in [
        ("f16", Swizzle::new(3, 3, 3)),
        ("fp32", Swizzle::new(3, 2, 3)),
        ("bytes", Swizzle::new(3, 4, 3)),
    ] {
        let out = swz(&["emit-header", "--swizzle", "A=SW128", "--unit", unit]);
        assert!(out.status.success(), "{unit}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            Header::new().swizzle("A", expected).render(),
            "{unit}"
        );
    }
    // A layout carries its unit: SW128 on an f16 tile is the byte swizzle, labelled as such.
    let out = swz("emit-header --layout A=8x64:f16:SW128");
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("using A = swz::Layout<8, 64, 2, false, swz::Swizzle<3, 4, 3>, 1, 0>;"));
}

#[test]
fn bad_layouts_are_one_line_and_exit_2() {
    for (arg, needle) in [
        ("A=8x8:f16:3,3,3", "does not divide"),
        ("A=8x8:f17:none", "unknown element type"),
        ("A=8x8", "missing :ELEM"),
        ("A=64x64:f16:3,3,3:pad=x", "pad = \"x\" is not an integer"),
        ("A=64x64:f16:3,3,3:bogus", "unknown option"),
    ] {
        let out = swz(&["emit-header", "--layout", arg]);
        assert_eq!(out.status.code(), Some(2), "{arg}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{arg}: {err}");
        assert!(err.contains(needle), "{arg}: {err}");
    }
}

#[test]
fn apply_takes_two_layers() {
    let out = swz("apply --swizzle 1,6,-2+3,3,5 --range 0..4096");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (a, b) = (Swizzle::new(1, 6, -2), Swizzle::new(3, 3, 5));
    let expected: String = (0..4096u32)
        .map(|o| format!("{}\n", b.apply(a.apply(o))))
        .collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}
