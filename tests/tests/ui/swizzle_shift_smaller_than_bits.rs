use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(B = 3, M = 3, S = 2);

fn main() {}
