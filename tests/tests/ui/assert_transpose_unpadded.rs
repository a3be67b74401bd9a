// A 32x32 f32 transpose tile without padding: a column read puts all 32 lanes in one bank.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

swizzle_core::assert_conflict_free!(
    Smem::row_major(32, 32, Elem::F32),
    Pattern::ROW_ST,
    Pattern::COL_LD
);

fn main() {}
