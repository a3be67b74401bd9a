use gpu_kernels::frame::Peer;
use gpu_kernels::frame::*;
use gpu_kernels::stencil::family::*;
use gpu_kernels::stencil::smem::Access;
use gpu_kernels::stencil::*;
use gpu_kernels::Elem;

#[test]
fn variants_are_every_spec_radius_and_type_once() {
    let specs = STENCIL.specs();
    assert_eq!(specs.len(), 2 * 5 * 13);
    let mut seen = std::collections::HashSet::new();
    for v in &specs {
        assert!(seen.insert((v.spec.name, v.k, v.value)), "{v}");
        assert!(v.spec.supports(v.k), "{v}");
    }
    assert_eq!(VARIANTS[0].elem(), Elem::F32);
    assert_eq!(VARIANTS[VARIANTS.len() - 1].elem(), Elem::I32);
    let (src, opts) = STENCIL.compile_unit(&VARIANTS[VARIANTS.len() - 1]);
    assert!(opts.is_empty() && src.headers[0].text.contains("using T = int;"));
}

/// The thread-value layouts issue exactly the addresses `smem.rs` derives lane by lane from the kernel (full
/// warp instructions of the fill; every read), so the frame's check and the stencil's own agree.
#[test]
fn accesses_are_the_lane_by_lane_ones() {
    for v in VARIANTS.iter().filter(|v| v.spec.method == Method::Smem) {
        let list = v.accesses();
        assert_eq!(list.len(), 2, "{v}");
        for (i, access) in [Access::Fill, Access::Read].into_iter().enumerate() {
            let a = list.get(i);
            let mut theirs: Vec<[u32; 32]> = (0..a.access.instructions(&a.smem))
                .map(|n| a.access.addrs(&a.smem, n))
                .collect();
            let mut ours: Vec<[u32; 32]> = (0..BLOCK / 32)
                .flat_map(|w| {
                    (0..v.spec.smem_instructions(access, v.k))
                        .filter_map(move |n| v.spec.smem_lanes(access, v.k, w, n))
                })
                .collect();
            theirs.sort_unstable();
            ours.sort_unstable();
            assert_eq!(theirs, ours, "{v} {access:?}");
            assert_eq!(a.conflict_free, v.spec.name != "smem-p8-unswizzled", "{v}");
            assert_eq!(
                a.access.report(&a.smem).conflicts() == 0,
                v.spec.smem_cost(access, v.k).conflicts() == 0,
                "{v} {access:?}"
            );
        }
    }
    assert!(VARIANTS
        .iter()
        .filter(|v| v.spec.method != Method::Smem)
        .all(|v| v.accesses().is_empty()));
}

/// The frame's check is not vacuous here: on the unswizzled baseline it names the read's conflict; on every
/// checked variant it is quiet, and `CHECKED` is every smem spec at the largest radius.
#[test]
fn the_frame_check_fires_on_the_baseline_only() {
    let base = Variant {
        spec: SMEM_P8_UNSWIZZLED,
        k: gpu_kernels::stencil::MAX_RADIUS,
        value: Elem::F32,
    };
    let read = base.accesses().get(1);
    let m = swizzle_core::verify::check_warp(&read.smem, &read.access);
    let text = m
        .as_str()
        .expect("the unswizzled 8-per-thread read conflicts");
    assert!(text.contains("read") && text.contains("bank"), "{text}");
    let fill = base.accesses().get(0);
    assert_eq!(
        swizzle_core::verify::check_warp(&fill.smem, &fill.access).as_str(),
        None
    );
    for v in CHECKED {
        for a in v.accesses().to_vec() {
            assert_eq!(a.conflict_free, v.spec.name != "smem-p8-unswizzled");
            if a.conflict_free {
                assert_eq!(
                    swizzle_core::verify::check_warp(&a.smem, &a.access).as_str(),
                    None,
                    "{v}"
                );
            }
        }
    }
    let smem_specs = SPECS.iter().filter(|s| s.method == Method::Smem).count();
    assert_eq!(CHECKED.len(), smem_specs);
}

#[test]
fn reference_is_the_stencil() {
    let variant = |k, value| {
        VARIANTS
            .iter()
            .find(|v| v.k == k && v.value == value)
            .unwrap()
    };
    let v = variant(2, Elem::I32);
    let input = HostBuf::random(Elem::I32, 100, 7);
    let out = &STENCIL.reference(v, Size::mn(1, 100), std::slice::from_ref(&input))[0];
    assert_eq!(out.len(), 96);
    for i in 0..96 {
        let sum: f64 = (i..=i + 4).map(|j| input.get(j)).sum();
        assert_eq!(out.get(i), (sum / 5.0).trunc(), "{i}");
    }
    let f = variant(1, Elem::F32);
    let x = HostBuf::random(Elem::F32, 10, 3);
    let out = &STENCIL.reference(f, Size::mn(1, 10), std::slice::from_ref(&x))[0];
    let a: Vec<f32> = (0..3).map(|j| x.get(j) as f32).collect();
    assert_eq!(out.get(0) as f32, (a[0] + a[1] + a[2]) / 3.0);
}

#[test]
fn launches_and_measures() {
    let v = VARIANTS[0];
    let l = STENCIL.launch(&v, Size::mn(1, 1000)).unwrap();
    assert_eq!(l.args, vec![Arg::Buf(1), Arg::Buf(0), Arg::U32(1000)]);
    assert!(STENCIL.launch(&v, Size::mn(1, 2)).is_err());
    assert!(STENCIL.launch(&v, Size::mn(2, 1000)).is_err());
    assert_eq!(
        STENCIL.measure(&v, Size::mn(1, 1000)),
        Measure::Bytes((1000 + 998) * 4)
    );
    assert_eq!(
        STENCIL.peer(&v, Size::mn(1, 1000)),
        Peer::CopyD2D { bytes: 4000 }
    );
}
