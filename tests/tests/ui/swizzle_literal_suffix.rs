use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(B = 3u8, M = 3, S = 3);

fn main() {
    let _ = SW;
}
