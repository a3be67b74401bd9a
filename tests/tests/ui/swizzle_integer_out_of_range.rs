// A literal too large for any field is refused at the literal, not as "not an integer".
use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(B = 3, M = 99999999999999999999, S = 3);

fn main() {
    let _ = SW;
}
