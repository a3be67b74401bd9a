use gpu_kernels::transpose::*;
use gpu_kernels::Elem;

#[test]
fn sources_name_their_spec() {
    let t = Transpose::Smem(smem::SPECS[0]);
    let (src, opts) = t.source(Elem::F32);
    assert!(src.text.contains("transposeSmem"));
    assert_eq!(opts, vec!["-DSMEM_KERNEL=1".to_string()]);
    let h = &src.headers[0].text;
    assert!(h.contains("struct Spec {"), "{h}");
    assert!(h.contains("static constexpr int TILE = 32;"), "{h}");
    assert!(
        h.contains("using Smem = swz::Layout<32, 32, 4, false, swz::Swizzle<0, 0, 0>, 4, 0>;"),
        "{h}"
    );
    assert!(h.contains("struct Order {"), "{h}");
}
