// Lower-case keys: each is refused at its own token with the spelling to use, and nothing else is reported.
use swizzle_core::{swizzle, Swizzle};

const SW: Swizzle = swizzle!(b = 3, m = 3, s = 3);

fn main() {
    let _ = SW.apply(0);
}
