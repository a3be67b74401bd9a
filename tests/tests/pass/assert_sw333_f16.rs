//! Sw<3,3,3> on f16 element offsets (Sw<3,4,3> on bytes): 16-byte row stores and every ldmatrix.x4 order are
//! conflict-free on 128-byte rows, for a 64x64 and a 128x64 tile; so is a one-word-padded 32x32 f32 transpose tile.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::{Elem, SwizzleIn, Unit};
use swizzle_core::{assert_conflict_free, Swizzle};

const TILE: Smem = Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));
assert_conflict_free!(
    TILE,
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_B,
    Pattern::LDMATRIX_X4_TRANS
);

const BIG: Smem = Smem::row_major(128, 64, Elem::F16)
    .with_swizzle_in(SwizzleIn::new(Swizzle::new(3, 4, 3), Unit::Bytes));
assert_conflict_free!(BIG, Pattern::ROW16, Pattern::LDMATRIX_X4);

assert_conflict_free!(
    Smem::row_major(32, 32, Elem::F32).with_padding(4),
    Pattern::COL_LD,
    Pattern::ROW_ST
);

// The macro's own binding cannot capture a user's name.
#[allow(non_upper_case_globals)]
const smem: Smem = TILE;
assert_conflict_free!(smem, Pattern::ROW16);

const _: () = assert!(swizzle_core::verify::is_conflict_free(
    &TILE,
    Pattern::STMATRIX_X4
));

fn main() {}
