// A trait impl holds only the trait's items: the check is refused once, at the call (it belongs in the inherent
// impl or beside the trait impl).
use swizzle_core::assert_conflict_free;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

trait Layout {
    const SMEM: Smem;
}

struct Kernel;

impl Layout for Kernel {
    const SMEM: Smem = Smem::row_major(64, 64, Elem::F16);
    assert_conflict_free!(Kernel::SMEM, Pattern::ROW16);
}

fn main() {}
