//! Walks whose instructions are not XOR translates of the first ones (padded lines, lines that are not a power of
//! two, swizzles spanning several lines) check in time proportional to their distinct warp accesses: equal cost
//! classes are costed once, and a period of the layout is visited once.
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::units::Elem;
use swizzle_core::{assert_conflict_free, Order, Swizzle, Tile};

/// A row-major tile of `elem` with `swizzle`, each line padded by `pad` bytes.
const fn padded(rows: u32, cols: u32, elem: Elem, swizzle: Swizzle, pad: u32) -> Smem {
    Smem::row_major(rows, cols, elem)
        .with_swizzle(swizzle)
        .with_padding(pad)
}

/// A column-major tile of bytes with `swizzle`, each line padded by `pad` bytes.
const fn col_major_bytes(rows: u32, cols: u32, swizzle: Swizzle, pad: u32) -> Smem {
    match Tile::new(rows, cols, Elem::U8, Order::ColMajor) {
        Ok(t) => Smem::plain(t).with_swizzle(swizzle).with_padding(pad),
        Err(_) => panic!("a column-major byte tile"),
    }
}

// One block row of 4096 byte columns, one word of padding: 4096 column instructions, 4 cost classes.
assert_conflict_free!(
    Smem::row_major(32, 4096, Elem::U8).with_padding(4),
    Pattern::COL_LD,
    Pattern::COL_ST
);

// The same with a swizzle spanning 4 lines.
assert_conflict_free!(
    padded(32, 4096, Elem::U8, Swizzle::new(3, 4, 7), 4),
    Pattern::COL_LD,
    Pattern::COL_ST
);

// 448-byte rows (not a power of two), a swizzle spanning 73 rows, padded.
assert_conflict_free!(
    padded(512, 224, Elem::F16, Swizzle::new(3, 4, 7), 4),
    Pattern::ROW_LD,
    Pattern::ROW_ST
);

// 1032-byte rows, padded by 16: the swizzle's blocks straddle lines.
assert_conflict_free!(
    padded(192, 1032, Elem::U8, Swizzle::new(1, 2, 5), 16),
    Pattern::COL_LD,
    Pattern::COL_ST
);

// Padded mma.acc on bytes.
assert_conflict_free!(
    padded(192, 1032, Elem::U8, Swizzle::new(1, 1, 7), 16),
    Pattern::MMA_ACC
);

// Unpadded 132-byte rows: 7260 column instructions.
assert_conflict_free!(
    Smem::row_major(1760, 132, Elem::U8),
    Pattern::COL_LD,
    Pattern::COL_ST
);

// The costliest six patterns found over legal tiles near 227 KiB: a swizzle spanning 9 lines of 1792 bytes, padded,
// where every matrix instruction is its own cost class (448 each).
assert_conflict_free!(
    padded(128, 224, Elem::F64, Swizzle::new(1, 4, 7), 16),
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_B,
    Pattern::LDMATRIX_X4_TRANS,
    Pattern::STMATRIX_X4,
    Pattern::ROW16,
    Pattern::ROW_LD
);

// Column-major, 1440-byte lines padded by 128, a swizzle reading bits 7..10: column and mma.acc patterns, on the
// tile and on a 16-element view.
const COLUMNS: Smem = col_major_bytes(1440, 32, Swizzle::new(3, 2, 5), 128);
assert_conflict_free!(
    COLUMNS,
    Pattern::COL_LD,
    Pattern::COL_ST,
    Pattern::COL_LD.viewed_as(16),
    Pattern::COL_ST.viewed_as(16),
    Pattern::MMA_ACC,
    Pattern::MMA_ACC.viewed_as(16)
);

// Column-major 3552-byte lines padded by one byte, a swizzle reading bits 8..10: row patterns walk 7104 XOR blocks
// each, in runs of equal keys along a line.
const LONG_LINES: Smem = col_major_bytes(3552, 64, Swizzle::new(3, 2, 6), 1);
assert_conflict_free!(
    LONG_LINES,
    Pattern::ROW_LD,
    Pattern::ROW_ST,
    Pattern::ROW_LD.viewed_as(32),
    Pattern::ROW_ST.viewed_as(32),
    Pattern::ROW_LD.viewed_as(64),
    Pattern::ROW_ST.viewed_as(64)
);

// 100-byte rows padded by 12, rows viewed as 64 and 256 bytes: blocks straddle lines (6400 instructions each).
assert_conflict_free!(
    padded(2048, 100, Elem::U8, Swizzle::new(3, 3, 7), 12),
    Pattern::ROW_LD.viewed_as(64),
    Pattern::ROW_ST.viewed_as(64),
    Pattern::ROW_LD.viewed_as(256),
    Pattern::ROW_ST.viewed_as(256)
);

// Column-major 1760-byte lines padded by 2: mma.acc viewed as 256-element rows.
const MMA_LINES: Smem = col_major_bytes(1760, 128, Swizzle::new(3, 4, 4), 2);
assert_conflict_free!(MMA_LINES, Pattern::MMA_ACC.viewed_as(256));

fn main() {}
