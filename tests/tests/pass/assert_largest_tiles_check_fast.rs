//! The checker costs one period of each walk, not the tile's element count: tiles near the 227 KiB limit check as
//! fast as small ones (no `long_running_const_eval`).
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;
use swizzle_core::{assert_conflict_free, Swizzle};

// 224 KiB of bytes, 1024-byte rows, no swizzle.
assert_conflict_free!(
    Smem::row_major(224, 1024, Elem::U8),
    Pattern::ROW_LD,
    Pattern::ROW16,
    Pattern::ROW_ST
);

// 224 KiB of f16, Sw<3,3,3>, six patterns.
assert_conflict_free!(
    Smem::row_major(1792, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3)),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_B,
    Pattern::LDMATRIX_X4_TRANS,
    Pattern::STMATRIX_X4,
    Pattern::MMA_ACC
);

// 1760 rows of 32 f32 padded by one word: the period is 32 rows.
assert_conflict_free!(
    Smem::row_major(1760, 32, Elem::F32).with_padding(4),
    Pattern::COL_LD,
    Pattern::COL_ST
);

fn main() {}
