use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(SW256);

fn main() {}
