use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(SW128, M = 3);

fn main() {}
