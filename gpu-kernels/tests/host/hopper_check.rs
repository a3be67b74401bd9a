use gpu_kernels::hopper::check::*;
use gpu_kernels::HostElem;

fn random_inputs_of<E: HostElem>() {
    let v: Vec<E> = random(10_000, 7);
    assert!(v
        .iter()
        .all(|&x| x.to_f64() != 0.0 && x.to_f64().abs() <= 1.0));
    assert!(v
        .iter()
        .all(|&x| E::from_f64(x.to_f64()).bits() == x.bits()));
}

#[test]
fn random_inputs_are_never_zero_and_round_trip() {
    random_inputs_of::<half::bf16>();
    random_inputs_of::<half::f16>();
}

#[test]
fn compare_catches_poison_and_errors() {
    type E = half::bf16;
    let a: Vec<E> = random(4 * 16, 1);
    let b: Vec<E> = random(3 * 16, 2);
    let rows: Vec<u32> = (0..4).collect();
    let r = host_rows(&a, &b, 3, 16, &rows);
    let mut got: Vec<E> = r.iter().flatten().map(|&x| E::from_f64(x)).collect();
    assert!(compare(&got, 3, 16, &rows, &r, "exact").unwrap() < 1e-2);
    got[5] = E::from_bits(0xFFFF); // poison left behind
    assert!(compare(&got, 3, 16, &rows, &r, "poison").is_err());
    got[5] = E::from_f64(r[1][2] + 0.25);
    assert!(compare(&got, 3, 16, &rows, &r, "off").is_err());
}
