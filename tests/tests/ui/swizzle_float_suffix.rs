use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(B = 3f32, M = 3, S = 3);

fn main() {
    let _ = SW;
}
