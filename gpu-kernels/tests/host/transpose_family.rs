use gpu_kernels::frame::*;
use gpu_kernels::transpose::family::*;
use gpu_kernels::transpose::*;
use gpu_kernels::Elem;

#[test]
fn reference_is_the_transpose() {
    let size = Size::mn(3, 5);
    let v = *TRANSPOSE
        .specs()
        .iter()
        .find(|v| !v.kernel.is_copy())
        .unwrap();
    let input = HostBuf::random(v.elem, 15, 1);
    let out = &TRANSPOSE.reference(&v, size, std::slice::from_ref(&input))[0];
    for r in 0..3 {
        for c in 0..5 {
            assert_eq!(out.get(c * 3 + r), input.get(r * 5 + c));
        }
    }
    let copy = Variant {
        kernel: Transpose::COPY_VEC16,
        elem: Elem::F16,
    };
    assert_eq!(
        TRANSPOSE.reference(&copy, size, std::slice::from_ref(&input))[0],
        input
    );
}

#[test]
fn specs_are_every_shipped_variant_once() {
    let specs = TRANSPOSE.specs();
    let smem = specs
        .iter()
        .filter(|v| matches!(v.kernel, Transpose::Smem(_)))
        .count();
    assert_eq!(smem, gpu_kernels::transpose::smem::SPECS.len());
    for v in &specs {
        if let Transpose::Smem(s) = v.kernel {
            assert_eq!(s.elem, v.elem);
            assert_eq!(TRANSPOSE.accesses(v).len(), 2);
        }
    }
}
