// The check is an item of its own and cannot see the impl's `Self`: refused at `Self`, with the fix.
use swizzle_core::assert_conflict_free;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

struct Kernel;

impl Kernel {
    const SMEM: Smem = Smem::row_major(64, 64, Elem::F16);
    assert_conflict_free!(Self::SMEM, Pattern::ROW16);
}

fn main() {}
