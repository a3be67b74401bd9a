use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(SW128, unit = f17);

fn main() {}
