//! Warp accesses and their totals: one [`Access`] is a warp instruction's op and 32 lane byte addresses;
//! [`accesses`] lists a [`Pattern`]'s instructions over any [`SmemLayout`], [`custom`] a kernel's own from a
//! closure, and [`TileReport`] sums any list of them and keeps the worst instruction for the bank map.

use super::{Pattern, SmemLayout};
use crate::bank::{self, Op, Report, WARP};
use core::fmt;

/// Why a pattern cannot walk a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternError {
    /// The (viewed) tile is not a whole number of the pattern's blocks.
    Shape {
        /// Rows of the (viewed) tile.
        rows: u32,
        /// Columns of the (viewed) tile.
        cols: u32,
        /// Rows of one pattern block.
        block_rows: u32,
        /// Bytes of one pattern block's row.
        block_bytes: u32,
    },
    /// The element size does not fit the pattern (ldmatrix rows need elements of at most 16 bytes, etc.).
    Elem {
        /// Bytes per element.
        elem_bytes: u32,
    },
    /// The layout splits or misaligns a lane's `bytes`-wide access (a swizzle moving pieces smaller than it, or a
    /// padded pitch that is not a multiple of it): the instruction could not be issued.
    SplitsAccess {
        /// Bytes per lane of the access.
        bytes: u32,
    },
    /// A thread-value layout's lane digits cover `lanes` lanes; its op takes addresses from `expected`.
    Lanes {
        /// Lanes the digits cover.
        lanes: u32,
        /// Lanes the op takes addresses from.
        expected: u32,
    },
    /// A thread-value layout sends `lane` of `instruction` outside the tile.
    OutOfTile {
        /// The instruction index.
        instruction: u32,
        /// The lane.
        lane: u32,
        /// The row it reaches.
        row: u32,
        /// The column it reaches.
        col: u32,
    },
    /// A thread-value layout's `lane` of `instruction` starts a `bytes`-wide access that is not aligned to its
    /// width or crosses the end of a line.
    Misaligned {
        /// The instruction index.
        instruction: u32,
        /// The lane.
        lane: u32,
        /// Bytes per lane of the access.
        bytes: u32,
    },
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Shape {
                rows,
                cols,
                block_rows,
                block_bytes,
            } => {
                write!(f, "a {rows}x{cols} view is not a whole number of {block_rows}-row x {block_bytes}-byte blocks")
            }
            PatternError::Elem { elem_bytes } => {
                write!(f, "{elem_bytes}-byte elements do not fit this pattern")
            }
            PatternError::SplitsAccess { bytes } => {
                write!(f, "the layout does not keep each lane's {bytes}-byte access contiguous and aligned")
            }
            PatternError::Lanes { lanes, expected } => {
                write!(f, "the lane digits cover {lanes} lanes; the instruction takes {expected} addresses")
            }
            PatternError::OutOfTile {
                instruction,
                lane,
                row,
                col,
            } => write!(f, "lane {lane} of instruction {instruction} touches ({row}, {col}), outside the tile"),
            PatternError::Misaligned {
                instruction,
                lane,
                bytes,
            } => write!(
                f,
                "lane {lane} of instruction {instruction} starts a {bytes}-byte access that is not aligned to {bytes} bytes within one line"
            ),
        }
    }
}

impl std::error::Error for PatternError {}

/// One warp instruction: the op and its 32 lane byte addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// The instruction.
    pub op: Op,
    /// Byte address of each lane, lane order.
    pub addrs: [u32; WARP],
}

impl Access {
    /// Build from `lane -> byte address`.
    ///
    /// ```
    /// use swizzle_core::bank::Op;
    /// use swizzle_core::pattern::Access;
    /// // 32x32 f32 transpose tile padded by one word: lane i reads (i, 0).
    /// let col = Access::from_fn(Op::LDS32, |lane| lane * (32 * 4 + 4));
    /// assert_eq!(col.wavefronts(), 1);
    /// ```
    pub fn from_fn(op: Op, addr_of_lane: impl Fn(u32) -> u32) -> Access {
        Access {
            op,
            addrs: core::array::from_fn(|l| addr_of_lane(l as u32)),
        }
    }

    /// Wavefronts the instruction costs ([`bank::wavefronts`]).
    pub const fn wavefronts(&self) -> u32 {
        bank::wavefronts(self.op, &self.addrs)
    }

    /// The cost and its explanation ([`bank::report`]).
    pub const fn report(&self) -> Report {
        bank::report(self.op, &self.addrs)
    }
}

/// `instructions` accesses of `op`, instruction `i` lane `l` at byte address `f(i, l)`: any kernel's pattern.
///
/// ```
/// use swizzle_core::bank::Op;
/// use swizzle_core::pattern::{custom, TileReport};
/// // A 32x32 f16 transpose tile, column c read with 16-bit loads (one instruction per column), rows padded by
/// // `pad` bytes. Two bytes of padding still leave lanes i and i+1 in one word's bank half the time.
/// let cols = |pad: u32| custom(Op::LDS16, 32, move |c, lane| lane * (64 + pad) + 2 * c);
/// let r = TileReport::new("col.ld +2B", &cols(2));
/// assert_eq!((r.instructions, r.wavefronts, r.ideal), (32, 48, 32));
/// let r = TileReport::new("col.ld +4B", &cols(4));
/// assert_eq!((r.instructions, r.wavefronts, r.ideal), (32, 32, 32));
/// ```
pub fn custom(op: Op, instructions: u32, f: impl Fn(u32, u32) -> u32) -> Vec<Access> {
    (0..instructions)
        .map(|i| Access::from_fn(op, |l| f(i, l)))
        .collect()
}

/// Every warp instruction `pattern` issues on any [`SmemLayout`].
pub fn accesses<L: SmemLayout + ?Sized>(
    layout: &L,
    pattern: Pattern,
) -> Result<Vec<Access>, PatternError> {
    let tile = layout.tile();
    pattern.check(tile)?;
    let op = pattern.op(tile.elem);
    Ok((0..pattern.instructions(tile))
        .map(|i| {
            Access::from_fn(op, |lane| {
                let (row, col) = tile.coord(pattern.lane_offset(tile, i, lane));
                layout.byte_addr(row, col)
            })
        })
        .collect())
}

/// Totals over many warp instructions, and the worst one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileReport {
    /// What was measured (a pattern's name).
    pub name: String,
    /// Warp instructions counted.
    pub instructions: u32,
    /// Their wavefronts, summed.
    pub wavefronts: u64,
    /// One wavefront per phase, summed: the conflict-free cost.
    pub ideal: u64,
    /// Index and report of the first instruction with the most conflicts.
    pub worst: Option<(u32, Report)>,
}

impl TileReport {
    /// Totals of `accesses`, under `name`.
    pub fn new(name: impl Into<String>, accesses: &[Access]) -> TileReport {
        let mut r = TileReport {
            name: name.into(),
            instructions: 0,
            wavefronts: 0,
            ideal: 0,
            worst: None,
        };
        for (i, a) in accesses.iter().enumerate() {
            let rep = a.report();
            r.instructions += 1;
            r.wavefronts += rep.wavefronts as u64;
            r.ideal += rep.ideal as u64;
            if r.worst
                .as_ref()
                .is_none_or(|(_, w)| rep.conflicts() > w.conflicts())
            {
                r.worst = Some((i as u32, rep));
            }
        }
        r
    }

    /// `wavefronts - ideal`, summed.
    pub fn conflicts(&self) -> u64 {
        self.wavefronts - self.ideal
    }
}

impl fmt::Display for TileReport {
    /// One summary line; with conflicts, the worst instruction's [`Report`] under it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ratio = if self.ideal == 0 {
            1.0
        } else {
            self.wavefronts as f64 / self.ideal as f64
        };
        writeln!(
            f,
            "{}: {} instructions, {} wavefronts (ideal {}, {} conflicts, {:.2}x)",
            self.name,
            self.instructions,
            self.wavefronts,
            self.ideal,
            self.conflicts(),
            ratio
        )?;
        if let Some((i, w)) = &self.worst {
            if w.conflicts() > 0 {
                write!(f, "  worst: instruction {i}, ")?;
                write!(f, "{w}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Smem;
    use crate::tile::Tile;
    use crate::units::Elem;

    #[test]
    fn generic_layout_matches_smem() {
        struct Pitch(Tile, u32);
        impl SmemLayout for Pitch {
            fn tile(&self) -> Tile {
                self.0
            }
            fn byte_addr(&self, row: u32, col: u32) -> u32 {
                row * self.1 + col * 4
            }
        }
        let t = Smem::row_major(32, 32, Elem::F32);
        let a = accesses(&Pitch(t.tile(), 132), Pattern::COL_LD).unwrap();
        let b = accesses(&t.with_padding(4), Pattern::COL_LD).unwrap();
        assert_eq!(a, b);
    }
}
