//! A 2-D tile of elements in shared memory, laid out row- or column-major, then swizzled.
//!
//! ```text
//!   (row, col) --order--> linear element offset --swizzle--> stored element offset (the smem slot)
//!   RowMajor: linear = row * cols + col        ColMajor: linear = col * rows + row
//! ```
//! The swizzle acts on **element offsets** of the tile's element type (convert a byte mode with
//! [`SwizzledTile::with_unit`]). It must map the tile onto itself; we require the simplest sufficient condition
//! that can be checked in O(1): the swizzle's period divides the element count. A swizzle permutes each period
//! block `[k*P, (k+1)*P)` within itself, so the tile is then a union of whole blocks. The sides need not be powers
//! of two (a 24x64 f16 tile with `Sw<3,3,3>`, period 512, is fine: 1536 = 3 * 512), but a tile smaller than one
//! period is refused even where the swizzle happens to stay inside it: use a smaller swizzle there.

use crate::swizzle::Swizzle;
use crate::units::{Elem, SwizzleIn, Unit, UnitError};
use core::fmt;

/// Which index moves fastest through memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// `col` is contiguous: `linear = row * cols + col`.
    RowMajor,
    /// `row` is contiguous: `linear = col * rows + row`.
    ColMajor,
}

/// A `rows x cols` tile of `elem`, unswizzled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub rows: u32,
    pub cols: u32,
    pub elem: Elem,
    pub order: Order,
}

/// Why a tile, or a swizzle on it, is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileError {
    /// A side is zero.
    Empty { rows: u32, cols: u32 },
    /// `rows * cols` (or its size in bytes) does not fit in a `u32`.
    TooLarge { rows: u32, cols: u32 },
    /// The swizzle's period (in elements) does not divide the element count, so it would map some element outside.
    PeriodDoesNotDivide {
        swizzle: Swizzle,
        period: u64,
        elems: u32,
    },
    /// A byte-unit swizzle has no exact form on this element type.
    Unit(UnitError),
}

impl fmt::Display for TileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileError::Empty { rows, cols } => write!(f, "tile {rows}x{cols} is empty"),
            TileError::TooLarge { rows, cols } => write!(f, "tile {rows}x{cols} is too large for 32-bit offsets"),
            TileError::PeriodDoesNotDivide { swizzle, period, elems } => write!(
                f,
                "{swizzle} repeats every {period} elements, which does not divide the tile's {elems} elements, \
                 so it would move elements out of the tile"
            ),
            TileError::Unit(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TileError {}

/// The most shared memory one thread block can use on sm_90 (H100/H200): 227 KiB, after opting in above 48 KiB.
/// Tools that walk a tile instruction by instruction (`swz show/check/synth`) refuse tiles larger than this.
pub const MAX_SMEM_BYTES: u32 = 227 * 1024;

impl Tile {
    /// ```
    /// use swizzle_core::tile::{Order, Tile};
    /// use swizzle_core::units::Elem;
    /// let t = Tile::new(8, 64, Elem::F16, Order::RowMajor).unwrap();
    /// assert_eq!((t.len(), t.bytes()), (512, 1024));
    /// ```
    pub const fn new(rows: u32, cols: u32, elem: Elem, order: Order) -> Result<Tile, TileError> {
        if rows == 0 || cols == 0 {
            return Err(TileError::Empty { rows, cols });
        }
        // rows * cols fits in u64; multiplying by the element size might not, so compare by division.
        let elems = rows as u64 * cols as u64;
        if elems > u32::MAX as u64 / elem.bytes() as u64 {
            return Err(TileError::TooLarge { rows, cols });
        }
        Ok(Tile {
            rows,
            cols,
            elem,
            order,
        })
    }

    /// Number of elements (never 0: `new` refuses empty tiles).
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(&self) -> u32 {
        // Saturating only matters for a hand-built value that skipped `new` (public fields).
        self.rows.saturating_mul(self.cols)
    }

    /// Size in bytes.
    pub const fn bytes(&self) -> u32 {
        self.len().saturating_mul(self.elem.bytes())
    }

    /// Unswizzled element offset of `(row, col)`; panics outside the tile.
    pub const fn linear(&self, row: u32, col: u32) -> u32 {
        assert!(
            row < self.rows && col < self.cols,
            "(row, col) outside the tile"
        );
        match self.order {
            Order::RowMajor => row * self.cols + col,
            Order::ColMajor => col * self.rows + row,
        }
    }

    /// The `(row, col)` at unswizzled element offset `offset`; panics outside the tile.
    pub const fn coord(&self, offset: u32) -> (u32, u32) {
        assert!(offset < self.len(), "offset outside the tile");
        match self.order {
            Order::RowMajor => (offset / self.cols, offset % self.cols),
            Order::ColMajor => (offset % self.rows, offset / self.rows),
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let order = match self.order {
            Order::RowMajor => "row-major",
            Order::ColMajor => "col-major",
        };
        write!(f, "{}x{} {} {order}", self.rows, self.cols, self.elem)
    }
}

/// A tile whose element offsets are swizzled; the swizzle is known to map the tile onto itself.
///
/// The small building block with an inverse ([`SwizzledTile::coord`]); the layout type everything else takes
/// (checker, synthesiser, `swz show/check`, the header, the kernel families) is [`crate::Smem`], which adds
/// units, padding and two-layer swizzles.
///
/// ```
/// use swizzle_core::tile::{Order, SwizzledTile, Tile};
/// use swizzle_core::units::Elem;
/// use swizzle_core::Swizzle;
/// let tile = Tile::new(8, 64, Elem::F16, Order::RowMajor).unwrap();
/// let st = SwizzledTile::new(tile, Swizzle::new(3, 3, 3)).unwrap();
/// // Row 1's first 8-element (16-byte) chunk is stored in chunk 1 of row 1.
/// assert_eq!(st.offset(1, 0), 64 + 8);
/// assert_eq!(st.coord(72), (1, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledTile {
    tile: Tile,
    swizzle: Swizzle,
}

impl SwizzledTile {
    /// `swizzle` acts on element offsets of `tile.elem`. Errors when its period does not divide the tile.
    pub const fn new(tile: Tile, swizzle: Swizzle) -> Result<SwizzledTile, TileError> {
        let period = swizzle.period();
        if !(tile.len() as u64).is_multiple_of(period) {
            return Err(TileError::PeriodDoesNotDivide {
                swizzle,
                period,
                elems: tile.len(),
            });
        }
        Ok(SwizzledTile { tile, swizzle })
    }

    /// Like [`SwizzledTile::new`] for a swizzle in any unit (e.g. a byte mode), converted exactly to `tile.elem`.
    ///
    /// ```
    /// use swizzle_core::tile::{Order, SwizzledTile, Tile};
    /// use swizzle_core::units::{ByteMode, Elem};
    /// let tile = Tile::new(64, 64, Elem::F16, Order::RowMajor).unwrap();
    /// let st = SwizzledTile::with_unit(tile, ByteMode::Sw128.swizzle_in()).unwrap();
    /// assert_eq!(st.swizzle().to_string(), "Sw<3,3,3>");
    /// ```
    pub const fn with_unit(tile: Tile, swizzle: SwizzleIn) -> Result<SwizzledTile, TileError> {
        match swizzle.to_unit(Unit::Elems(tile.elem)) {
            Ok(s) => SwizzledTile::new(tile, s.swizzle),
            Err(e) => Err(TileError::Unit(e)),
        }
    }

    pub const fn tile(&self) -> Tile {
        self.tile
    }

    /// The swizzle, on element offsets.
    pub const fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The element offset (smem slot) where `(row, col)` is stored; panics outside the tile.
    pub const fn offset(&self, row: u32, col: u32) -> u32 {
        self.swizzle.apply(self.tile.linear(row, col))
    }

    /// [`SwizzledTile::offset`] in bytes.
    pub const fn byte_offset(&self, row: u32, col: u32) -> u32 {
        self.offset(row, col) * self.tile.elem.bytes()
    }

    /// The `(row, col)` stored at element offset `offset`: the inverse of [`SwizzledTile::offset`].
    pub const fn coord(&self, offset: u32) -> (u32, u32) {
        self.tile.coord(self.swizzle.inverse().apply(offset))
    }
}

impl fmt::Display for SwizzledTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} with {} on {}",
            self.tile, self.swizzle, self.tile.elem
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal small swizzle on every power-of-two and a few other tiles: accepted exactly when the period
    /// divides the tile, and then `offset` is a bijection onto `0..len` with `coord` as its inverse.
    #[test]
    fn offset_and_coord_round_trip_exhaustively() {
        let sides = [1u32, 2, 3, 4, 8, 16, 24, 32, 64];
        for sw in Swizzle::all_legal(3, 4, 6) {
            for rows in sides {
                for cols in sides {
                    for order in [Order::RowMajor, Order::ColMajor] {
                        let tile = Tile::new(rows, cols, Elem::F16, order).unwrap();
                        let st = SwizzledTile::new(tile, sw);
                        assert_eq!(st.is_ok(), (tile.len() as u64).is_multiple_of(sw.period()));
                        let Ok(st) = st else { continue };
                        let mut seen = vec![false; tile.len() as usize];
                        for r in 0..rows {
                            for c in 0..cols {
                                let o = st.offset(r, c);
                                assert!(o < tile.len() && !seen[o as usize], "{st} at ({r},{c})");
                                seen[o as usize] = true;
                                assert_eq!(st.coord(o), (r, c), "{st}");
                                assert_eq!(st.byte_offset(r, c), o * 2);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn errors() {
        assert!(matches!(
            Tile::new(0, 8, Elem::F16, Order::RowMajor),
            Err(TileError::Empty { .. })
        ));
        assert!(matches!(
            Tile::new(65536, 65536, Elem::F16, Order::RowMajor),
            Err(TileError::TooLarge { .. })
        ));
        // rows * cols * bytes overflows u64 here; the check must still refuse (not wrap, not panic).
        for elem in [Elem::F16, Elem::F64, Elem::B128] {
            assert!(matches!(
                Tile::new(u32::MAX, u32::MAX, elem, Order::RowMajor),
                Err(TileError::TooLarge { .. })
            ));
        }
        assert!(matches!(
            Tile::new(3_037_000_500, 3_037_000_500, Elem::F64, Order::RowMajor),
            Err(TileError::TooLarge { .. })
        ));
        assert!(Tile::new(1, u32::MAX, Elem::U8, Order::RowMajor).is_ok());
        assert!(Tile::new(1, u32::MAX / 2 + 1, Elem::F16, Order::RowMajor).is_err());
        let small = Tile::new(8, 8, Elem::F16, Order::RowMajor).unwrap();
        let e = SwizzledTile::new(small, Swizzle::new(3, 3, 3)).unwrap_err();
        assert!(e.to_string().contains("repeats every 512 elements"), "{e}");
        let lossy = SwizzleIn::new(Swizzle::new(3, 1, 3), Unit::Bytes);
        let f32_tile = Tile::new(64, 64, Elem::F32, Order::RowMajor).unwrap();
        assert!(matches!(
            SwizzledTile::with_unit(f32_tile, lossy),
            Err(TileError::Unit(_))
        ));
    }

    #[test]
    fn const_use() {
        const TILE: Tile = match Tile::new(8, 64, Elem::F16, Order::RowMajor) {
            Ok(t) => t,
            Err(_) => panic!("bad tile"),
        };
        const ST: SwizzledTile = match SwizzledTile::new(TILE, Swizzle::new(3, 3, 3)) {
            Ok(t) => t,
            Err(_) => panic!("bad swizzle"),
        };
        const _: () = assert!(ST.offset(7, 0) == 7 * 64 + 56);
        const _: () = assert!(ST.coord(7 * 64 + 56).0 == 7);
    }
}
