// A 1024x1024 f16 tile (2 MiB) is no block's shared memory: refused at the tile argument, at once.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

swizzle_core::assert_conflict_free!(
    Smem::row_major(1024, 1024, Elem::F16),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
);

fn main() {}
