use gpu_kernels::hopper::*;
use gpu_kernels::{Elem, Size};

#[test]
fn dims_are_checked_before_launch() {
    assert!(check_dims(Size::mnk(1, 1, 16)).is_ok());
    assert!(check_dims(Size::mnk(17, 33, 8)).is_ok());
    let e = check_dims(Size::mnk(64, 64, 20)).unwrap_err().to_string();
    assert!(e.contains("multiple of 8") && e.contains("16-byte"), "{e}");
    assert!(check_dims(Size::mnk(0, 4, 16)).is_err());
}

#[test]
fn element_types_other_than_bf16_and_f16_are_refused_with_one_line() {
    let f32_spec = SHIPPED.with_ty(Elem::F32);
    for e in [
        f32_spec.validate(232_448).unwrap_err(),
        compile_spec(&f32_spec).unwrap_err(),
    ] {
        let e = e.to_string();
        assert!(
            e.contains("element type f32 is not supported (expected bf16 or f16 or e4m3)"),
            "{e}"
        );
    }
    assert!(SHIPPED.with_ty(Elem::F16).validate(232_448).is_ok());
}

#[test]
fn ptxas_log_check_refuses_lost_fast_paths() {
    let ok = "ptxas info    : Used 168 registers, used 1 barriers\n\
              ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads";
    assert!(check_ptxas_log(&SHIPPED, ok).is_ok());
    for bad in [
        "ptxas warning : (C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized due to ...",
        "ptxas warning : (C7508) setmaxnreg ignored; unable to determine register count at entry",
        "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline stage in the function 'hopper_gemm'",
        "ptxas info    : (C7517) warpgroup.wait is injected in around line 1356 by compiler to allow use of registers defined by GMMA in function 'hopper_gemm'",
        "ptxas         .     16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads",
    ] {
        assert!(check_ptxas_log(&SHIPPED, bad).is_err(), "{bad}");
    }
}
