// Inside an impl the check runs as anywhere else: an unswizzled f16 tile read by ldmatrix conflicts, at the pattern.
use swizzle_core::assert_conflict_free;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

struct Kernel;

impl Kernel {
    const SMEM: Smem = Smem::row_major(64, 64, Elem::F16);
    assert_conflict_free!(Kernel::SMEM, Pattern::ROW16, Pattern::LDMATRIX_X4);
}

fn main() {}
