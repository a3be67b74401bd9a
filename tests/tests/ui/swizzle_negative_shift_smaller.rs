use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(B = 2, M = 0, S = -1);

fn main() {}
