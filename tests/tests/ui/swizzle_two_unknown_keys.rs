// Two unknown keys: one message each, at the key; no `missing key` follow-on, no compiler noise (used in a `let`).
use swizzle_core::swizzle;

fn main() {
    let sw = swizzle!(B = 3, Q = 1, R = 2);
    let _ = sw.apply(0);
}
