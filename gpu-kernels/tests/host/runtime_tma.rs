use gpu_kernels::runtime::tma::*;
use swizzle_core::ByteMode;

#[test]
fn swizzle_enum_values_match_byte_modes() {
    for m in ByteMode::ALL {
        assert_eq!(cu_swizzle(m) as u32, m as u32);
        assert_eq!(format!("{:?}", cu_swizzle(m)), m.cu_name());
    }
}
