// ldmatrix.x4 reads 16x16 f16 blocks; an 8x8 tile has none.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

swizzle_core::assert_conflict_free!(Smem::row_major(8, 8, Elem::F16), Pattern::LDMATRIX_X4);

fn main() {}
