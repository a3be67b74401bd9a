use gpu_kernels::frame::*;
use gpu_kernels::matmul_l2::family::*;
use gpu_kernels::matmul_l2::*;
use gpu_kernels::Elem;

#[test]
fn every_spec_launches_at_every_verify_size() {
    for s in MATMUL_L2.specs() {
        for size in Family::verify_sizes(&MATMUL_L2) {
            let l = MATMUL_L2.launch(&s, size).unwrap();
            assert_eq!(l.args.len(), 6);
            assert_eq!(MATMUL_L2.buffers(&s, size).len(), 3);
        }
    }
}

#[test]
fn reference_is_the_product() {
    let s = SPECS[0];
    let size = Size::mnk(2, 2, 3);
    let a = HostBuf::from_f64(Elem::F32, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let b = HostBuf::from_f64(Elem::F32, &[7.0, 8.0, 9.0, 10.0, 11.0, 12.0]);
    let c = &MATMUL_L2.reference(&s, size, &[a, b])[0];
    assert_eq!(c.to_f64(), vec![58.0, 64.0, 139.0, 154.0]);
}
