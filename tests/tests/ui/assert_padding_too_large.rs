// The padding counts: 64 rows of 128 bytes plus 4096 bytes each is over 227 KiB.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;

swizzle_core::assert_conflict_free!(
    Smem::row_major(64, 64, Elem::F16).with_padding(4096),
    Pattern::ROW16,
);

fn main() {}
