use swizzle_core::{swizzle, Swizzle};

const B: u32 = 3;
const SW: Swizzle = swizzle!(B = B, M = 3, S = 3);

fn main() {}
