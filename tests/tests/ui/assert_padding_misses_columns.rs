// 16 bytes of padding keep row stores and ldmatrix conflict-free, but a column of f16 still lands 4-way.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

swizzle_core::assert_conflict_free!(
    Smem::row_major(64, 64, Elem::F16).with_padding(16),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::COL_LD,
);

fn main() {}
