// Two XOR bits separate only 4 of ldmatrix's 8 rows: lanes 0 and 4 still meet in one bank.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;
use swizzle_core::Swizzle;

swizzle_core::assert_conflict_free!(
    Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(2, 3, 3)),
    Pattern::LDMATRIX_X4
);

fn main() {}
