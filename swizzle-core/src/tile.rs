//! A 2-D tile of elements, laid out row- or column-major; [`crate::layout::Smem`] then places it in shared memory.
//!
//! ```text
//!   (row, col) --order--> linear element offset --swizzle--> stored element offset (the smem slot)
//!   RowMajor: linear = row * cols + col        ColMajor: linear = col * rows + row
//! ```
//! A swizzle on a tile ([`crate::layout::Smem::validate`]) must map the tile onto itself; we require the simplest sufficient condition
//! that can be checked in O(1): the swizzle's period divides the element count. A swizzle permutes each period
//! block `[k*P, (k+1)*P)` within itself, so the tile is then a union of whole blocks. The sides need not be powers
//! of two (a 24x64 f16 tile with `Sw<3,3,3>`, period 512, is fine: 1536 = 3 * 512), but a tile smaller than one
//! period is refused even where the swizzle happens to stay inside it: use a smaller swizzle there.

use crate::swizzle::Swizzle;
use crate::units::{Elem, UnitError};
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
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Element type.
    pub elem: Elem,
    /// Memory order.
    pub order: Order,
}

/// Why a tile, or a swizzle on it, is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TileError {
    /// A side is zero.
    Empty {
        /// Rows given.
        rows: u32,
        /// Columns given.
        cols: u32,
    },
    /// `rows * cols` (or its size in bytes) does not fit in a `u32`.
    TooLarge {
        /// Rows given.
        rows: u32,
        /// Columns given.
        cols: u32,
    },
    /// The swizzle's period (in elements) does not divide the element count, so it would map some element outside.
    PeriodDoesNotDivide {
        /// The swizzle (its last layer, for two).
        swizzle: Swizzle,
        /// Its period in elements.
        period: u64,
        /// Elements in the tile.
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

impl core::error::Error for TileError {}

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

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
