use gpu_kernels::elem::*;

#[test]
fn random_is_seeded_finite_and_not_constant() {
    let a: Vec<f32> = random(1000, 7);
    assert_eq!(a, random::<f32>(1000, 7));
    assert_ne!(a, random::<f32>(1000, 8));
    assert!(a.iter().all(|v| v.is_finite() && (-1.0..1.0).contains(v)));
    assert!(a.iter().filter(|v| **v == 0.0).count() < 5);
    let h: Vec<half::f16> = random(1000, 7);
    assert!(h.iter().all(|v| v.is_finite()));
}

#[test]
fn host_elems_name_their_type_and_convert_exactly() {
    fn round_trip<E: HostElem>(v: f64) {
        assert_eq!(E::from_f64(v).to_f64(), v, "{}", E::ELEM);
    }
    for v in [-1.0, -0.375, 0.0, 0.5, 0.99609375] {
        round_trip::<f32>(v);
        round_trip::<half::f16>(v);
        round_trip::<half::bf16>(v);
    }
    round_trip::<i32>(-7.0);
    assert_eq!(i32::from_f64(-7.9), -7); // toward zero, as C converts
    assert_eq!(
        [f32::ELEM, half::f16::ELEM, half::bf16::ELEM, i32::ELEM],
        [Elem::F32, Elem::F16, Elem::BF16, Elem::I32]
    );
    assert_eq!(half::bf16::from_f64(1.0 + 1.0 / 512.0).to_f64(), 1.0); // nearest even
    assert_eq!(unit_roundoff(Elem::BF16), Some(1.0 / 256.0));
    assert_eq!(unit_roundoff(Elem::I32), None);
    assert_eq!(table_name(Elem::F32), "fp32");
}

#[test]
fn a_family_refuses_an_element_type_it_does_not_run_with_one_line() {
    let allowed = [Elem::BF16, Elem::F16];
    assert!(check_supported("hopper", Elem::F16, &allowed).is_ok());
    let e = check_supported("hopper", Elem::F32, &allowed)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "invalid argument: hopper: element type f32 is not supported (expected bf16 or f16)"
    );
}

#[test]
fn nonzero_values_are_never_zero_and_stay_inside_the_unit_interval() {
    let v: Vec<f64> = nonzero_unit_values(100_000, 3).collect();
    assert!(v.iter().all(|&x| x != 0.0 && x > -1.0 && x < 1.0));
    // Every value as f32, bf16 and f16 is still non-zero (the smallest is 2^-24, an f16 subnormal).
    assert!(v.iter().all(|&x| half::f16::from_f64(x) != half::f16::ZERO));
    assert!(v
        .iter()
        .all(|&x| half::bf16::from_f64(x) != half::bf16::ZERO));
}

#[test]
fn indices_cover_their_range_and_stay_inside_it() {
    let v: Vec<u32> = indices(10_000, 7, 1).collect();
    assert!(v.iter().all(|&i| i < 7));
    assert!((0..7).all(|i| v.contains(&i)));
    assert_eq!(v, indices(10_000, 7, 1).collect::<Vec<_>>());
    assert_ne!(v, indices(10_000, 7, 2).collect::<Vec<_>>());
}
