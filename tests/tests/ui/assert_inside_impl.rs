//! In an `impl` block the check is refused once, by the compiler, at the call: a named associated constant would
//! never be evaluated unless used.
use swizzle_core::assert_conflict_free;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

struct Kernel;

impl Kernel {
    const SMEM: Smem = Smem::row_major(64, 64, Elem::F16);
    assert_conflict_free!(Kernel::SMEM, Pattern::ROW16);
}

// Where it belongs: after the impl, naming the layout by path.
assert_conflict_free!(Kernel::SMEM, Pattern::ROW16);

fn main() {}
