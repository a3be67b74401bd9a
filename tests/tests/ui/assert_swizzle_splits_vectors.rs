// Sw<3,2,3> on f16 moves 8-byte pieces, so a lane's 16-byte store would no longer be contiguous.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;
use swizzle_core::Swizzle;

swizzle_core::assert_conflict_free!(
    Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(3, 2, 3)),
    Pattern::ROW16
);

fn main() {}
