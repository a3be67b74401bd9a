//! The shared-memory layout: where each element of a [`Tile`] lives.
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
    Swizzled {
        /// The swizzle, one layer or two.
        swizzle: SwizzleFn,
        /// What the offsets it acts on count.
        unit: Unit,
    },
    /// Memory order, with `pad_bytes` of padding after each row (each column, for a column-major tile).
    Padded {
        /// Padding bytes after each line.
        pad_bytes: u32,
    },
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

/// The shared-memory layout of a tile: the one layout value the bank checker, the synthesiser, `swz show/check`,
/// the generated header and the kernel families all take.
///
/// Private fields, `const` constructors. Where element `(row, col)` lives, in three steps:
///
/// ```text
///   linear = row * cols + col   (row-major; col * rows + row for column-major)      memory order
///   s      = swizzle(linear in `unit`s), bytes inside one unit kept                  one XOR layer, or two
///   byte   = s + (s / line_bytes) * pad_bytes                                        padding after each line
/// ```
/// so a swizzle permutes the unpadded tile and padding then spreads its lines apart. Padding and a swizzle may be
/// combined (the bank checker, the header and [`Smem::byte_addr`] agree on this order).
///
/// ```
/// use swizzle_core::{Elem, Smem, Swizzle};
/// const A: Smem = Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));
/// assert_eq!(A.byte_addr(1, 0), 128 + 16);
/// assert_eq!(A.offset(1, 0), 64 + 8); // in elements
/// const P: Smem = Smem::row_major(32, 32, Elem::F32).with_padding(4);
/// assert_eq!((P.byte_addr(1, 0), P.footprint()), (132, 32 * 132));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Smem {
    tile: Tile,
    swizzle: SwizzleFn,
    unit: Unit,
    pad_bytes: u32,
}

impl Smem {
    /// A row-major `rows x cols` tile of `elem`, unswizzled; panics (a compile error in `const`) if empty or too
    /// large.
    pub const fn row_major(rows: u32, cols: u32, elem: Elem) -> Smem {
        Smem::of(rows, cols, elem, Order::RowMajor)
    }

    /// A column-major `rows x cols` tile of `elem` (`row` contiguous), unswizzled.
    pub const fn col_major(rows: u32, cols: u32, elem: Elem) -> Smem {
        Smem::of(rows, cols, elem, Order::ColMajor)
    }

    const fn of(rows: u32, cols: u32, elem: Elem, order: Order) -> Smem {
        match Tile::new(rows, cols, elem, order) {
            Ok(tile) => Smem::plain(tile),
            Err(_) => panic!("tile is empty or does not fit in 32-bit offsets"),
        }
    }

    /// `tile` unswizzled and unpadded.
    pub const fn plain(tile: Tile) -> Smem {
        Smem {
            tile,
            swizzle: SwizzleFn::Single(Swizzle::IDENTITY),
            unit: Unit::Elems(tile.elem),
            pad_bytes: 0,
        }
    }

    /// `tile` placed as `layout` says (the older two-way description: a swizzle, or padding).
    pub const fn new(tile: Tile, layout: Layout) -> Smem {
        Smem::plain(tile).with_layout(layout)
    }

    /// The same tile with `swizzle` acting on its *element* offsets (CuTe's convention: `Sw<3,3,3>` on f16).
    /// Keeps the padding.
    pub const fn with_swizzle(self, swizzle: Swizzle) -> Smem {
        self.with_swizzle_fn_in(SwizzleFn::Single(swizzle), Unit::Elems(self.tile.elem))
    }

    /// The same tile with a swizzle in an explicit unit (e.g. bytes, or a TMA byte mode).
    pub const fn with_swizzle_in(self, swizzle: SwizzleIn) -> Smem {
        self.with_swizzle_fn_in(SwizzleFn::Single(swizzle.swizzle), swizzle.unit)
    }

    /// The same tile with a one- or two-layer swizzle on element offsets.
    pub const fn with_swizzle_fn(self, swizzle: SwizzleFn) -> Smem {
        self.with_swizzle_fn_in(swizzle, Unit::Elems(self.tile.elem))
    }

    /// The same tile with a one- or two-layer swizzle on offsets counted in `unit`.
    pub const fn with_swizzle_fn_in(self, swizzle: SwizzleFn, unit: Unit) -> Smem {
        Smem {
            swizzle,
            unit,
            ..self
        }
    }

    /// The same tile with `pad_bytes` after each line (row; column for a column-major tile). Keeps the swizzle.
    pub const fn with_padding(self, pad_bytes: u32) -> Smem {
        Smem { pad_bytes, ..self }
    }

    /// Replace the placement by `layout` (a swizzle without padding, or padding without a swizzle).
    pub const fn with_layout(self, layout: Layout) -> Smem {
        match layout {
            Layout::Swizzled { swizzle, unit } => Smem {
                swizzle,
                unit,
                pad_bytes: 0,
                ..self
            },
            Layout::Padded { pad_bytes } => Smem {
                swizzle: SwizzleFn::Single(Swizzle::IDENTITY),
                unit: Unit::Elems(self.tile.elem),
                pad_bytes,
                ..self
            },
        }
    }

    /// Shape, element type and memory order.
    pub const fn tile(&self) -> Tile {
        self.tile
    }

    /// The element type.
    pub const fn elem(&self) -> Elem {
        self.tile.elem
    }

    /// Rows of the tile.
    pub const fn rows(&self) -> u32 {
        self.tile.rows
    }

    /// Columns of the tile.
    pub const fn cols(&self) -> u32 {
        self.tile.cols
    }

    /// The tile's memory order.
    pub const fn order(&self) -> Order {
        self.tile.order
    }

    /// The swizzle (identity when unswizzled), acting on offsets counted in [`Smem::unit`].
    pub const fn swizzle(&self) -> SwizzleFn {
        self.swizzle
    }

    /// What the swizzle's input counts (elements of [`Smem::elem`] unless built with an explicit unit).
    pub const fn unit(&self) -> Unit {
        self.unit
    }

    /// Bytes of padding after each line.
    pub const fn pad_bytes(&self) -> u32 {
        self.pad_bytes
    }

    /// True when some layer of the swizzle is not the identity.
    pub const fn is_swizzled(&self) -> bool {
        match self.swizzle {
            SwizzleFn::Single(s) => !s.is_identity(),
            SwizzleFn::Composed(_) => true,
        }
    }

    /// The placement as a [`Layout`]: the swizzle when there is one, else the padding. (Lossy when both are set:
    /// use the accessors.)
    pub const fn layout(&self) -> Layout {
        if self.pad_bytes > 0 && !self.is_swizzled() {
            Layout::Padded {
                pad_bytes: self.pad_bytes,
            }
        } else {
            Layout::Swizzled {
                swizzle: self.swizzle,
                unit: self.unit,
            }
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
        tile + (self.tile.len() / self.line_len()) as u64 * self.pad_bytes as u64
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
    /// A swizzle on `unit` offsets acts on `byte >> log2(unit)` and keeps the bytes inside one unit in place;
    /// padding then adds `pad_bytes` per whole line before the swizzled address.
    pub const fn byte_addr_linear(&self, linear: u32) -> u32 {
        let eb = self.tile.elem.bytes();
        let s = self.swizzled_bytes(linear * eb);
        s + (s / (self.line_len() * eb)) * self.pad_bytes
    }

    /// The swizzle alone on byte offset `b` of the unswizzled tile (no padding): XOR-linear in `b`'s bits.
    pub(crate) const fn swizzled_bytes(&self, b: u32) -> u32 {
        let k = self.unit.log2_bytes();
        (self.swizzle.apply(b >> k) << k) | (b & ((1 << k) - 1))
    }

    /// True when lines are a power of two bytes and the swizzle changes only bits below a line's size, so every
    /// byte stays in its line and padding adds `line * pad` to it.
    pub(crate) const fn swizzle_keeps_lines(&self) -> bool {
        let line = self.line_len() as u64 * self.tile.elem.bytes() as u64;
        if !line.is_power_of_two() {
            return false;
        }
        let (a, b) = match self.swizzle {
            SwizzleFn::Single(s) => (s, Swizzle::IDENTITY),
            SwizzleFn::Composed(c) => (c.first, c.second),
        };
        let k = self.unit.log2_bytes();
        ((a.zzz_msk() as u64) << k) < line && ((b.zzz_msk() as u64) << k) < line
    }

    /// Byte address of element `(row, col)`; panics outside the tile.
    pub const fn byte_addr(&self, row: u32, col: u32) -> u32 {
        self.byte_addr_linear(self.tile.linear(row, col))
    }

    /// Element offset of `(row, col)` (what a kernel indexes a `T*` with): [`Smem::byte_addr`] / element bytes.
    /// Padding that is not a whole number of elements makes this meaningless: [`Smem::offset_is_whole`] says.
    pub const fn offset(&self, row: u32, col: u32) -> u32 {
        self.byte_addr(row, col) / self.tile.elem.bytes()
    }

    /// True when every element starts at a multiple of its size (padding is whole elements).
    pub const fn offset_is_whole(&self) -> bool {
        self.pad_bytes.is_multiple_of(self.tile.elem.bytes())
    }

    /// True when every naturally aligned `bytes`-wide run of the unswizzled tile stays contiguous and aligned:
    /// each swizzle layer moves whole units of at least `bytes` (`2^M` units of `unit`), and the padded pitch is
    /// a multiple of `bytes`.
    pub const fn keeps_whole(&self, bytes: u32) -> bool {
        let (a, b) = match self.swizzle {
            SwizzleFn::Single(s) => (s, Swizzle::IDENTITY),
            SwizzleFn::Composed(c) => (c.first, c.second),
        };
        let k = self.unit.log2_bytes();
        (a.is_identity() || (1u64 << (a.base + k)) >= bytes as u64)
            && (b.is_identity() || (1u64 << (b.base + k)) >= bytes as u64)
            && (self.line_len() * self.tile.elem.bytes() + self.pad_bytes).is_multiple_of(bytes)
    }

    /// Bytes of shared memory the tile occupies (padding included).
    pub const fn footprint(&self) -> u32 {
        self.tile.bytes() + (self.tile.len() / self.line_len()) * self.pad_bytes
    }

    /// Why this layout is not usable: a swizzle whose period does not divide the tile (it would move elements
    /// out of it), or one that does not convert to whole units of the element type.
    pub const fn validate(&self) -> Result<(), crate::tile::TileError> {
        let bytes = self.tile.bytes() as u64;
        let period_bytes = self.swizzle.period() << self.unit.log2_bytes();
        if !bytes.is_multiple_of(period_bytes) {
            let s = match self.swizzle {
                SwizzleFn::Single(s) => s,
                SwizzleFn::Composed(c) => c.second,
            };
            return Err(crate::tile::TileError::PeriodDoesNotDivide {
                swizzle: s,
                period: period_bytes / self.tile.elem.bytes() as u64,
                elems: self.tile.len(),
            });
        }
        Ok(())
    }
}

/// A tile or a layout (padding included) larger than one block's shared memory
/// ([`MAX_SMEM_BYTES`](crate::tile::MAX_SMEM_BYTES), 227 KiB on sm_90): what [`Smem::fits_smem`] and
/// [`tile_fits_smem`] refuse, in the words every caller prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLargeForSmem {
    /// The tile alone does not fit.
    Tile(Tile),
    /// The layout does not fit once its padding is added.
    Layout(Smem),
}

impl fmt::Display for TooLargeForSmem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = crate::tile::MAX_SMEM_BYTES;
        match self {
            TooLargeForSmem::Tile(t) => write!(
                f,
                "{}x{} {} is {} bytes; one block's shared memory holds at most {max} (227 KiB on sm_90)",
                t.rows,
                t.cols,
                t.elem.name(),
                t.bytes()
            ),
            TooLargeForSmem::Layout(s) => write!(
                f,
                "{s} occupies {} bytes; one block's shared memory holds at most {max} (227 KiB on sm_90)",
                s.bytes()
            ),
        }
    }
}

/// `tile` if one block's shared memory can hold it.
pub const fn tile_fits_smem(tile: Tile) -> Result<Tile, TooLargeForSmem> {
    if tile.bytes() > crate::tile::MAX_SMEM_BYTES {
        Err(TooLargeForSmem::Tile(tile))
    } else {
        Ok(tile)
    }
}

impl Smem {
    /// The layout if one block's shared memory can hold it, padding included (measured in u64: a layout no
    /// block could hold is refused, not wrapped).
    pub const fn fits_smem(self) -> Result<Smem, TooLargeForSmem> {
        if self.bytes() > crate::tile::MAX_SMEM_BYTES as u64 {
            Err(TooLargeForSmem::Layout(self))
        } else {
            Ok(self)
        }
    }
}

impl fmt::Display for Smem {
    /// `64x64 f16 row-major, Sw<3,3,3> on f16` / `32x32 f32 row-major, padded +4 B per row` / both, joined by
    /// `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, ", self.tile)?;
        match (self.is_swizzled(), self.pad_bytes) {
            (false, 0) => f.write_str("unswizzled"),
            (false, p) => write!(f, "padded +{p} B per row"),
            (true, 0) => write!(f, "{} on {}", self.swizzle, self.unit),
            (true, p) => write!(
                f,
                "{} on {}, padded +{p} B per row",
                self.swizzle, self.unit
            ),
        }
    }
}

#[cfg(feature = "std")]
impl core::str::FromStr for Smem {
    type Err = String;

    /// `ROWSxCOLS:ELEM:SWIZZLE[:pad=BYTES][:unit=UNIT][:col]`, the spelling of `swz emit-header --layout`:
    ///
    /// - `SWIZZLE`: `none`, `B,M,S`, two layers `B,M,S+B,M,S` (on element offsets of `ELEM` unless `unit=`
    ///   says otherwise), or a byte mode `SW32`/`SW64`/`SW128` (on byte addresses: the layout carries the unit);
    /// - `pad=BYTES`: bytes of padding after each line; `unit=bytes|ELEM`: what the swizzle counts;
    ///   `col`: column-major.
    ///
    /// ```
    /// use swizzle_core::{Elem, Smem, Swizzle};
    /// let a: Smem = "64x64:f16:3,3,3".parse().unwrap();
    /// assert_eq!(a, Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3)));
    /// let b: Smem = "64x64:f16:SW128".parse().unwrap();
    /// assert_eq!(b.byte_addr(1, 0), a.byte_addr(1, 0));
    /// assert!("8x8:f16:3,3,3".parse::<Smem>().is_err()); // the swizzle's period does not fit the tile
    /// assert!("64x64:f16:3,3,3:pad=4294967295".parse::<Smem>().is_err()); // larger than shared memory
    /// assert!("64x64:f16:3,3,3:pad=16:pad=32".parse::<Smem>().unwrap_err().contains("duplicate key `pad`"));
    /// ```
    fn from_str(text: &str) -> Result<Smem, String> {
        use crate::spelling::{self, SwizzleSpelling};
        let mut parts = text.trim().split(':');
        let dims = parts.next().unwrap_or_default();
        let (rows, cols) = dims.split_once(['x', 'X']).ok_or_else(|| {
            format!("expected ROWSxCOLS:ELEM:SWIZZLE[:pad=BYTES][:unit=UNIT][:col], got {text:?}")
        })?;
        let rows =
            spelling::decimal_u32("ROWS", rows.trim()).map_err(|e| format!("{text:?}: {e}"))?;
        let cols =
            spelling::decimal_u32("COLS", cols.trim()).map_err(|e| format!("{text:?}: {e}"))?;
        let elem_name = parts
            .next()
            .ok_or_else(|| format!("{text:?}: missing :ELEM (f16, bf16, f32, ...)"))?;
        let elem = spelling::elem(elem_name).map_err(|e| format!("{text:?}: {e}"))?;
        let sw_text = parts
            .next()
            .ok_or_else(|| {
                format!("{text:?}: missing :SWIZZLE (none, B,M,S, B,M,S+B,M,S or SW128)")
            })?
            .trim();
        let (mut order, mut pad, mut unit) = (Order::RowMajor, 0u32, None);
        // Each key once, as in the macros: `pad=16:pad=32` is refused, not read as its last value.
        let mut seen = [false; 3];
        for opt in parts {
            let key = opt
                .trim()
                .split_once('=')
                .map_or(opt.trim(), |(k, _)| k.trim());
            if let Some(slot) = ["pad", "unit", "col"].iter().position(|&k| k == key) {
                if seen[slot] {
                    return Err(format!("{text:?}: duplicate key `{key}`"));
                }
                seen[slot] = true;
            }
            match opt.trim().split_once('=') {
                Some(("pad", p)) => {
                    pad = spelling::decimal_u32("pad", p.trim())
                        .map_err(|e| format!("{text:?}: {e}"))?
                }
                Some(("unit", u)) => {
                    unit = Some(spelling::unit(u).map_err(|e| format!("{text:?}: {e}"))?)
                }
                None if opt.trim() == "col" => order = Order::ColMajor,
                _ => {
                    return Err(format!(
                        "{text:?}: unknown option {opt:?} (pad=BYTES, unit=UNIT, col)"
                    ))
                }
            }
        }
        let tile = Tile::new(rows, cols, elem, order).map_err(|e| format!("{text:?}: {e}"))?;
        let (swizzle, default_unit) =
            match spelling::swizzle(sw_text).map_err(|e| format!("{text:?}: {e}"))? {
                // The identity is the same on every unit.
                SwizzleSpelling::Mode(crate::units::ByteMode::None) => {
                    (SwizzleFn::Single(Swizzle::IDENTITY), Unit::Elems(elem))
                }
                SwizzleSpelling::Mode(mode) => (SwizzleFn::Single(mode.swizzle()), Unit::Bytes),
                SwizzleSpelling::Layers(f) => (f, Unit::Elems(elem)),
            };
        let smem = Smem::plain(tile)
            .with_swizzle_fn_in(swizzle, unit.unwrap_or(default_unit))
            .with_padding(pad);
        smem.validate().map_err(|e| format!("{text:?}: {e}"))?;
        smem.fits_smem().map_err(|e| format!("{text:?}: {e}"))
    }
}

/// Any `(row, col) -> byte address` placement of a tile, for layouts that are not a [`Layout`].
pub trait SmemLayout {
    /// The tile placed.
    fn tile(&self) -> Tile;
    /// Byte address of element `(row, col)`.
    fn byte_addr(&self, row: u32, col: u32) -> u32;
}

impl SmemLayout for Smem {
    fn tile(&self) -> Tile {
        Smem::tile(self)
    }
    fn byte_addr(&self, row: u32, col: u32) -> u32 {
        Smem::byte_addr(self, row, col)
    }
}

/// The XOR swizzle (on element offsets) that makes 8 rows x 16 bytes at one column conflict-free (ldmatrix,
/// stmatrix, each 8-lane phase) and keeps 16-byte chunks whole (cp.async, lds128), for rows of `row_bytes`
/// bytes of `elem`.
///
/// Unit: 16-byte chunks, `M = log2(16 / elem bytes)`. A 128-byte bank line holds 8 chunks, so the chunk index
/// within the line (3 bits, fewer if a row is shorter) is XORed with the line index (`S` above the chunk bits):
///
/// ```text
///   row_bytes >= 128: Sw<3, M, log2(row_bytes / 16)>   the row's low 3 bits pick the chunk slot
///                     (64 f16 per row: Sw<3,3,3>; 128: Sw<3,3,4>; 256: Sw<3,3,5>)
///   row_bytes ==  64: Sw<2, M, 3>                      two rows share a line; row bits 1..2 pick the slot
/// ```
///
/// ```
/// use swizzle_core::layout::ldmatrix_swizzle;
/// use swizzle_core::{units::Elem, Swizzle};
/// assert_eq!(ldmatrix_swizzle(128, Elem::F16), Swizzle::new(3, 3, 3));
/// assert_eq!(ldmatrix_swizzle(64, Elem::F16), Swizzle::new(2, 3, 3));
/// assert_eq!(ldmatrix_swizzle(512, Elem::F16), Swizzle::new(3, 3, 5));
/// ```
pub const fn ldmatrix_swizzle(row_bytes: u32, elem: Elem) -> Swizzle {
    let m = (16 / elem.bytes()).trailing_zeros();
    let chunks = row_bytes / 16;
    assert!(
        chunks >= 4 && chunks.is_power_of_two(),
        "ldmatrix_swizzle: rows must be a power of two >= 64 bytes"
    );
    let bits = if chunks >= 8 { 3 } else { 2 };
    let shift = if chunks >= 8 {
        chunks.trailing_zeros()
    } else {
        3
    };
    Swizzle::new(bits, m, shift as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal small swizzle on every power-of-two and a few other tiles: valid exactly when the period
    /// divides the tile, and then `offset` is a bijection onto `0..len`.
    #[test]
    fn swizzled_offsets_are_a_bijection_exactly_when_the_period_divides() {
        let sides = [1u32, 2, 3, 4, 8, 16, 24, 32, 64];
        for sw in Swizzle::all_legal(3, 4, 6) {
            for rows in sides {
                for cols in sides {
                    for order in [Order::RowMajor, Order::ColMajor] {
                        let tile = Tile::new(rows, cols, Elem::F16, order).unwrap();
                        let smem = Smem::plain(tile).with_swizzle(sw);
                        let valid = smem.validate();
                        assert_eq!(
                            valid.is_ok(),
                            (tile.len() as u64).is_multiple_of(sw.period()),
                            "{smem}"
                        );
                        if valid.is_err() {
                            continue;
                        }
                        let mut seen = vec![false; tile.len() as usize];
                        for r in 0..rows {
                            for c in 0..cols {
                                let o = smem.offset(r, c);
                                assert!(o < tile.len() && !seen[o as usize], "{smem} at ({r},{c})");
                                seen[o as usize] = true;
                                assert_eq!(smem.byte_addr(r, c), o * 2);
                            }
                        }
                    }
                }
            }
        }
        let small = Smem::row_major(8, 8, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));
        let e = small.validate().unwrap_err();
        assert!(e.to_string().contains("repeats every 512 elements"), "{e}");
    }
}
