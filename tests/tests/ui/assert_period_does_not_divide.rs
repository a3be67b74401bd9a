use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::{assert_conflict_free, Elem, Swizzle};

// Sw<1,5,1> repeats every 128 elements; a 3x32 tile has 96: the swizzle would move elements out of the tile.
assert_conflict_free!(
    Smem::row_major(3, 32, Elem::F32).with_swizzle(Swizzle::new(1, 5, 1)),
    Pattern::ROW_LD
);

fn main() {}
