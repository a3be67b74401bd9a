//! The shared-memory buffer: where each element of a [`Tile`] lives.
//!
//! A [`Layout`] places a tile's elements in shared memory: a one- or two-layer XOR swizzle on offsets in a stated
//! [`Unit`], or row padding. [`Smem`] = tile + layout, and [`Smem::byte_addr`] is the whole map
//! `(row, col) -> byte address`. Any other map implements [`SmemLayout`].
//!
//! ```
//! use swizzle_core::pattern::Smem;
//! use swizzle_core::units::Elem;
//! use swizzle_core::Swizzle;
//! let t = Smem::row_major(64, 64, Elem::F16);
//! // Row 1 starts 128 bytes in; Sw<3,3,3> on f16 moves its first 16-byte chunk to the second.
//! assert_eq!(t.byte_addr(1, 0), 128);
//! assert_eq!(t.with_swizzle(Swizzle::new(3, 3, 3)).byte_addr(1, 0), 128 + 16);
//! ```

use crate::compose::SwizzleFn;
use crate::swizzle::Swizzle;
use crate::tile::{Order, Tile};
use crate::units::{Elem, SwizzleIn, Unit};
use core::fmt;

/// How a tile's elements are placed in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Memory order (row- or column-major per the tile), offsets permuted by a one- or two-layer XOR swizzle that
    /// acts on offsets counted in `unit`. `Sw<0,0,0>` is the plain layout.
    Swizzled { swizzle: SwizzleFn, unit: Unit },
    /// Memory order, with `pad_bytes` of padding after each row (each column, for a column-major tile).
    Padded { pad_bytes: u32 },
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Layout::Swizzled {
                swizzle: SwizzleFn::Single(s),
                ..
            } if s.is_identity() => f.write_str("unswizzled"),
            Layout::Swizzled { swizzle, unit } => write!(f, "{swizzle} on {unit}"),
            Layout::Padded { pad_bytes } => write!(f, "padded +{pad_bytes} B per row"),
        }
    }
}

/// A tile in shared memory: what it holds and where each element lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Smem {
    pub tile: Tile,
    pub layout: Layout,
}

impl Smem {
    /// A row-major `rows x cols` tile of `elem`, unswizzled; panics (a compile error in `const`) if empty or too
    /// large.
    pub const fn row_major(rows: u32, cols: u32, elem: Elem) -> Smem {
        match Tile::new(rows, cols, elem, Order::RowMajor) {
            Ok(tile) => Smem::new(
                tile,
                Layout::Swizzled {
                    swizzle: SwizzleFn::Single(Swizzle::IDENTITY),
                    unit: Unit::Bytes,
                },
            ),
            Err(_) => panic!("tile is empty or does not fit in 32-bit offsets"),
        }
    }

    pub const fn new(tile: Tile, layout: Layout) -> Smem {
        Smem { tile, layout }
    }

    /// The same tile with `swizzle` acting on its *element* offsets (CuTe's convention: `Sw<3,3,3>` on f16).
    pub const fn with_swizzle(self, swizzle: Swizzle) -> Smem {
        self.with_layout(Layout::Swizzled {
            swizzle: SwizzleFn::Single(swizzle),
            unit: Unit::Elems(self.tile.elem),
        })
    }

    /// The same tile with a swizzle in an explicit unit (e.g. bytes, or a TMA byte mode).
    pub const fn with_swizzle_in(self, swizzle: SwizzleIn) -> Smem {
        self.with_layout(Layout::Swizzled {
            swizzle: SwizzleFn::Single(swizzle.swizzle),
            unit: swizzle.unit,
        })
    }

    /// The same tile with a one- or two-layer swizzle on element offsets.
    pub const fn with_swizzle_fn(self, swizzle: SwizzleFn) -> Smem {
        self.with_layout(Layout::Swizzled {
            swizzle,
            unit: Unit::Elems(self.tile.elem),
        })
    }

    /// The same tile with `pad_bytes` after each row.
    pub const fn with_padding(self, pad_bytes: u32) -> Smem {
        self.with_layout(Layout::Padded { pad_bytes })
    }

    pub const fn with_layout(self, layout: Layout) -> Smem {
        Smem {
            tile: self.tile,
            layout,
        }
    }

    /// Shared memory the layout occupies, in bytes: the tile plus the padding after each line. A swizzle permutes
    /// inside the tile and adds nothing. `u64`, so that a huge padding is measured rather than wrapped.
    ///
    /// ```
    /// use swizzle_core::{pattern::Smem, units::Elem};
    /// assert_eq!(Smem::row_major(32, 32, Elem::F32).with_padding(4).bytes(), 32 * (128 + 4));
    /// ```
    pub const fn bytes(&self) -> u64 {
        let tile = self.tile.len() as u64 * self.tile.elem.bytes() as u64;
        match self.layout {
            Layout::Swizzled { .. } => tile,
            Layout::Padded { pad_bytes } => {
                tile + (self.tile.len() / self.line_len()) as u64 * pad_bytes as u64
            }
        }
    }

    /// Elements per line of memory order: `cols` for a row-major tile, `rows` for a column-major one.
    pub const fn line_len(&self) -> u32 {
        match self.tile.order {
            Order::RowMajor => self.tile.cols,
            Order::ColMajor => self.tile.rows,
        }
    }

    /// Byte address of the element at unswizzled (memory-order) element offset `linear`.
    ///
    /// A swizzle on `unit` offsets acts on `byte >> log2(unit)` and keeps the bytes inside one unit in place.
    pub const fn byte_addr_linear(&self, linear: u32) -> u32 {
        let eb = self.tile.elem.bytes();
        let b = linear * eb;
        match self.layout {
            Layout::Swizzled { swizzle, unit } => {
                let k = unit.log2_bytes();
                (swizzle.apply(b >> k) << k) | (b & ((1 << k) - 1))
            }
            Layout::Padded { pad_bytes } => b + (linear / self.line_len()) * pad_bytes,
        }
    }

    /// Byte address of element `(row, col)`; panics outside the tile.
    pub const fn byte_addr(&self, row: u32, col: u32) -> u32 {
        self.byte_addr_linear(self.tile.linear(row, col))
    }

    /// True when every naturally aligned `bytes`-wide run of the unswizzled tile stays contiguous and aligned:
    /// each swizzle layer moves whole units of at least `bytes` (`2^M` units of `unit`), and a padded pitch is a
    /// multiple of `bytes`.
    pub const fn keeps_whole(&self, bytes: u32) -> bool {
        match self.layout {
            Layout::Swizzled { swizzle, unit } => {
                let (a, b) = match swizzle {
                    SwizzleFn::Single(s) => (s, Swizzle::IDENTITY),
                    SwizzleFn::Composed(c) => (c.first, c.second),
                };
                let k = unit.log2_bytes();
                (a.is_identity() || (1u64 << (a.base + k)) >= bytes as u64)
                    && (b.is_identity() || (1u64 << (b.base + k)) >= bytes as u64)
            }
            Layout::Padded { pad_bytes } => {
                (self.line_len() * self.tile.elem.bytes() + pad_bytes).is_multiple_of(bytes)
            }
        }
    }

    /// Bytes of shared memory the tile occupies (padding included).
    pub const fn footprint(&self) -> u32 {
        match self.layout {
            Layout::Swizzled { .. } => self.tile.bytes(),
            Layout::Padded { pad_bytes } => {
                self.tile.bytes() + (self.tile.len() / self.line_len()) * pad_bytes
            }
        }
    }
}

impl fmt::Display for Smem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.tile, self.layout)
    }
}

/// Any `(row, col) -> byte address` placement of a tile, for layouts that are not a [`Layout`].
pub trait SmemLayout {
    fn tile(&self) -> Tile;
    fn byte_addr(&self, row: u32, col: u32) -> u32;
}

impl SmemLayout for Smem {
    fn tile(&self) -> Tile {
        self.tile
    }
    fn byte_addr(&self, row: u32, col: u32) -> u32 {
        Smem::byte_addr(self, row, col)
    }
}
