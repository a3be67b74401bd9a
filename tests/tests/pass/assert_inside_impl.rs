//! The check is written where the layout is: in an inherent `impl` (several times, generic or not), in a function
//! body and in a module, naming the layout by path.
use swizzle_core::assert_conflict_free;
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;
use swizzle_core::Swizzle;

struct Kernel;

impl Kernel {
    const SMEM: Smem = Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));
    assert_conflict_free!(Kernel::SMEM, Pattern::ROW16);
    assert_conflict_free!(Kernel::SMEM, Pattern::LDMATRIX_X4);

    /// A method beside the checks still works.
    const fn bytes() -> u64 {
        Self::SMEM.bytes()
    }
}

struct Staged<T>(T);

impl<T> Staged<T> {
    const SMEM: Smem = Smem::row_major(32, 32, Elem::F32).with_padding(4);
    assert_conflict_free!(Staged::<()>::SMEM, Pattern::COL_LD, Pattern::ROW_ST);
}

mod kernels {
    use super::*;

    assert_conflict_free!(super::Kernel::SMEM, Pattern::ROW16);
}

assert_conflict_free!(Kernel::SMEM, Pattern::ROW16);

fn main() {
    assert_conflict_free!(Kernel::SMEM, Pattern::LDMATRIX_X4);
    assert_eq!(Kernel::bytes(), 8192);
    let _ = Staged(0u8).0;
    let _ = Staged::<u8>::SMEM;
}
