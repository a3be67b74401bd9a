//! `swizzle!` in const contexts: explicit fields, defaulted S, negative S, named byte modes and units.
use swizzle_core::units::{ByteMode, Elem};
use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(B = 3, M = 3, S = 3);
const _: () = assert!(SW.apply(64) == 72);
const _: () = assert!(SW.inverse().apply(72) == 64);

// Keys in any order; S defaults to B.
const DEFAULTED: Swizzle = swizzle!(M = 3, B = 2);
const _: () = assert!(DEFAULTED.shift == 2);

const NEG: Swizzle = swizzle!(B = 2, M = 0, S = -3);
const _: () = assert!(NEG.apply(1) == 0b1001);

// Named byte modes, on bytes and converted to element units.
const SW128: Swizzle = swizzle!(SW128);
const _: () = assert!(SW128.bits == 3 && SW128.base == 4 && SW128.shift == 3);
const SW128_F16: Swizzle = swizzle!(SW128, unit = f16);
const _: () = assert!(SW128_F16.bits == 3 && SW128_F16.base == 3 && SW128_F16.shift == 3);
const SW64_F32: Swizzle = swizzle!(SW64, unit = f32);
const _: () = assert!(SW64_F32.base == 2 && SW64_F32.bits == 2);
const NONE: Swizzle = swizzle!(NONE, unit = bytes);
const _: () = assert!(NONE.is_identity());

// A trailing comma is fine; the macro also works in expression position.
const TRAILING: Swizzle = swizzle!(B = 1, M = 4, S = 3,);

fn main() {
    assert_eq!(SW, Swizzle::new(3, 3, 3));
    assert_eq!(SW128, ByteMode::Sw128.swizzle());
    assert_eq!(
        SW128_F16,
        ByteMode::Sw128.swizzle().to_elems(Elem::F16).unwrap()
    );
    assert_eq!(TRAILING, swizzle!(SW32));
    let local = swizzle!(B = 3, M = 4);
    assert_eq!(local.to_string(), "Sw<3,4,3>");
    for o in 0..1024 {
        assert_eq!(SW128_F16.apply(o) * 2, SW128.apply(o * 2));
    }
}
