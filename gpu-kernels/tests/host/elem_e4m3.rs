use gpu_kernels::elem::E4m3;
use gpu_kernels::{Elem, HostElem};

/// The host type carries `Elem::E4M3` and converts through swizzle-core's codec.
#[test]
fn the_host_type_is_elem_e4m3() {
    assert_eq!(E4m3::from_f64(-2.0).to_f64(), -2.0);
    assert_eq!(<E4m3 as HostElem>::ELEM, Elem::E4M3);
    assert_eq!(Elem::E4M3.c_type(), "__nv_fp8_e4m3");
    assert_eq!(Elem::E4M3.c_include(), Some("cuda_fp8.h"));
    assert_eq!(Elem::E4M3.bytes(), 1);
}
