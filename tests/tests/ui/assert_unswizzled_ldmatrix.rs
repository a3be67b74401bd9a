// An unswizzled 64x64 f16 tile: ldmatrix.x4's 8 rows of 128 bytes all start in the same bank.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

swizzle_core::assert_conflict_free!(
    Smem::row_major(64, 64, Elem::F16),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4
);

fn main() {}
