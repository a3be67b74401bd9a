//! Swizzles whose span is the whole tile (the layout's period is the tile) check as fast as small ones: an
//! instruction whose addresses are an earlier one's XORed with one constant costs the same, so on power-of-two
//! lines the checker costs one instruction per pattern (two for `mma.acc`) and the last; padded, row accesses
//! cost the same and matrix accesses a few per block row.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::{Elem, SwizzleIn, Unit};
use swizzle_core::{assert_conflict_free, Swizzle};

/// 128 KiB of bytes, 128 rows of 1024, with `swizzle` on byte offsets.
const fn bytes_128x1024(swizzle: Swizzle) -> Smem {
    Smem::row_major(128, 1024, Elem::U8).with_swizzle_in(SwizzleIn::new(swizzle, Unit::Bytes))
}

// 128 KiB of bytes, Sw<8,1,8> on bytes: 4096 row instructions in one period.
assert_conflict_free!(
    bytes_128x1024(Swizzle::new(8, 1, 8)),
    Pattern::ROW_LD,
    Pattern::ROW_ST
);

// The same tile, one bit XORed from bit 16 into bit 8 (span 17 bits).
assert_conflict_free!(
    bytes_128x1024(Swizzle::new(1, 8, 8)),
    Pattern::ROW16,
    Pattern::ROW_LD,
    Pattern::ROW_ST
);

// Padded by 16 bytes per row: the swizzle keeps every byte in its line, so padding moves whole units; the
// matrix accesses walk one instruction per 128-byte column of a block row (the XOR moves whole rows of banks).
assert_conflict_free!(
    bytes_128x1024(Swizzle::new(1, 8, 8)).with_padding(16),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_TRANS,
    Pattern::STMATRIX_X4,
    Pattern::ROW_LD,
    Pattern::ROW_ST
);

// Sw<8,1,8> on bytes, padded by 4 bytes per row: row reads and writes.
assert_conflict_free!(
    Smem::row_major(128, 1024, Elem::U8)
        .with_swizzle(Swizzle::new(8, 1, 8))
        .with_padding(4),
    Pattern::ROW_LD,
    Pattern::ROW_ST
);

fn main() {}
