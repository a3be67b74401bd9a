// `swizzle!()` is one mistake: one message naming both missing keys, and no compiler noise after it.
use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!();

fn main() {
    let _ = SW.apply(0);
}
