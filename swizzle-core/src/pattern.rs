//! Access patterns: from (tile, layout, pattern) to the warp instructions a kernel really issues.
//!
//! Three small pieces, each `const`:
//!
//! 1. A [`Layout`] places a [`Tile`]'s elements in shared memory: a one- or two-layer XOR swizzle on offsets in a
//!    stated [`Unit`](crate::units::Unit), or row padding. [`Smem`] = tile + layout, and [`Smem::byte_addr`] is
//!    the whole map `(row, col) -> byte address`.
//! 2. A [`Pattern`] says which element each lane of each warp instruction touches, in *memory order*: instruction
//!    `i`, lane `l` -> linear element offset ([`Pattern::lane_offset`]), over every instruction needed to cover
//!    the tile once (all warps, all iterations: the order of warps does not change any instruction's cost).
//!    A pattern may view the tile with another row width ([`Pattern::viewed_as`]): the fragment problem 2.1 reads each 256-element
//!    row of a 16x256 tile as a 16x16 matrix, which is `ldmatrix.x4` on the same memory viewed as 256x16.
//! 3. [`Pattern::addrs`] composes the two into the 32 byte addresses of instruction `i`, ready for
//!    [`crate::bank::wavefronts`].
//!
//! For layouts that are not a [`Layout`] (any `(row, col) -> byte` function), implement [`SmemLayout`] and use
//! [`accesses`]; for kernels that are not a [`Pattern`], build [`Access`]es from a closure ([`Access::from_fn`],
//! [`custom`]). [`TileReport`] sums any list of accesses and keeps the worst instruction for the bank map.
//!
//! This file holds the patterns; the buffer description ([`Layout`], [`Smem`], [`SmemLayout`]) lives in
//! `layout.rs` and the accesses and reports ([`Access`], [`accesses`], [`custom`], [`TileReport`],
//! [`PatternError`]) in `pattern/access.rs`, all re-exported here.
//!
//! Kernel-specific accesses (a transpose's register-transposed block stores, a stencil's halo loads) are not
//! patterns: they are [`WarpAccess`] values (thread-value layouts, `pattern/warp.rs`) owned by their kernel
//! family; every [`Pattern`] is one too ([`Pattern::warp`]).
//!
//! `cp.async` 16-byte copies are ASSUMED to cost what `sts128` costs for the same addresses ([`Kind::Row16`]);
//! Nsight Compute does not count them as shared stores, so this cannot be validated.
//!
//! ```
//! use swizzle_core::pattern::{Pattern, Smem};
//! use swizzle_core::units::Elem;
//! use swizzle_core::Swizzle;
//! let plain = Smem::row_major(64, 64, Elem::F16);
//! let swizzled = plain.with_swizzle(Swizzle::new(3, 3, 3)); // on f16 element offsets
//! let p = Pattern::LDMATRIX_X4;
//! // 8 rows of 128 bytes start in the same bank: each of the 4 matrices (phases) costs 8 wavefronts.
//! assert_eq!(p.report(&plain).wavefronts, 4 * 8 * p.instructions(plain.tile()) as u64);
//! assert_eq!(p.report(&swizzled).conflicts(), 0);
//! ```

mod access;
mod warp;

pub use crate::layout::{Layout, Smem, SmemLayout};
pub use access::{accesses, custom, Access, PatternError, TileReport};
pub use warp::{Digit, Digits, WarpAccess, MAX_DIGITS};

use crate::bank::{self, Op, Width, WARP};
use crate::tile::{Order, Tile};
use crate::units::Elem;
use core::fmt;
use core::str::FromStr;

/// Which kind of warp access a [`Pattern`] issues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// 16-byte row copies into smem (`cp.async` 16 B or `st.shared.v4`, costed as `sts128`): consecutive lanes
    /// write consecutive 16-byte chunks in memory order.
    Row16,
    /// `ldmatrix.x4` / `stmatrix.x4` of 16-row x 32-byte sub-tiles (16x16 for b16), one instruction per sub-tile.
    /// `b_order: false` is the A-operand lane order (lanes 0..16 give rows 0..16 of the left 16 bytes, lanes
    /// 16..32 of the right); `true` is the B-operand order (matrices: rows 0..8 left, rows 0..8 right, rows 8..16
    /// left, rows 8..16 right). `.trans` moves the same rows.
    Matrix {
        /// `stmatrix` rather than `ldmatrix`.
        store: bool,
        /// `.trans`.
        trans: bool,
        /// The B-operand lane order.
        b_order: bool,
    },
    /// Scalar column access: lane `i` touches element `(r0 + i, c)` (a transpose's column read or write).
    Column {
        /// A store rather than a load.
        store: bool,
    },
    /// Scalar row access: lane `i` touches element `(r, c0 + i)`.
    Row {
        /// A store rather than a load.
        store: bool,
    },
    /// `mma` m16n8 accumulator stores: lane `l` stores the element pair at row `l / 4` (then `l / 4 + 8`), columns
    /// `2 * (l % 4) + {0, 1}`; two instructions per 16x8 fragment.
    MmaAcc,
}

/// Names of the [`Kind::Matrix`] patterns, indexed by `store * 4 + trans * 2 + b_order`.
const MATRIX_NAMES: [&str; 8] = [
    "ldmatrix.x4",
    "ldmatrix.x4.b",
    "ldmatrix.x4.trans",
    "ldmatrix.x4.trans.b",
    "stmatrix.x4",
    "stmatrix.x4.b",
    "stmatrix.x4.trans",
    "stmatrix.x4.trans.b",
];

/// A kind of access applied over a whole tile, optionally on a reshaped view of its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// What each warp instruction does.
    pub kind: Kind,
    /// Row width (elements) of the view the pattern walks; 0 = the tile's own line length.
    pub view_cols: u32,
}

impl Pattern {
    /// 16-byte row copies ([`Kind::Row16`]).
    pub const ROW16: Pattern = Pattern::of(Kind::Row16);
    /// `ldmatrix.x4`, A-operand lane order.
    pub const LDMATRIX_X4: Pattern = Pattern::matrix(false, false, false);
    /// `ldmatrix.x4`, B-operand lane order.
    pub const LDMATRIX_X4_B: Pattern = Pattern::matrix(false, false, true);
    /// `ldmatrix.x4.trans`.
    pub const LDMATRIX_X4_TRANS: Pattern = Pattern::matrix(false, true, false);
    /// `stmatrix.x4`.
    pub const STMATRIX_X4: Pattern = Pattern::matrix(true, false, false);
    /// Scalar column reads.
    pub const COL_LD: Pattern = Pattern::of(Kind::Column { store: false });
    /// Scalar column writes.
    pub const COL_ST: Pattern = Pattern::of(Kind::Column { store: true });
    /// Scalar row reads.
    pub const ROW_LD: Pattern = Pattern::of(Kind::Row { store: false });
    /// Scalar row writes.
    pub const ROW_ST: Pattern = Pattern::of(Kind::Row { store: true });
    /// `mma` m16n8 accumulator stores.
    pub const MMA_ACC: Pattern = Pattern::of(Kind::MmaAcc);

    /// Every generic pattern (without views): row16, the 8 matrix variants (ld/st, .trans, .b), col/row,
    /// mma.acc. Kernel-specific accesses are [`WarpAccess`] values owned by their kernel family.
    pub const ALL: [Pattern; 14] = {
        let mut all = [Pattern::ROW16; 14];
        let mut k = 0;
        while k < 8 {
            all[1 + k] = Pattern::matrix(k & 4 != 0, k & 2 != 0, k & 1 != 0);
            k += 1;
        }
        all[9] = Pattern::COL_LD;
        all[10] = Pattern::COL_ST;
        all[11] = Pattern::ROW_LD;
        all[12] = Pattern::ROW_ST;
        all[13] = Pattern::MMA_ACC;
        all
    };

    /// The `ldmatrix.x4` / `stmatrix.x4` pattern ([`Kind::Matrix`]): a store or a load, `.trans` or not, in the
    /// B operand's lane order or the A operand's.
    pub const fn matrix(store: bool, trans: bool, b_order: bool) -> Pattern {
        Pattern::of(Kind::Matrix {
            store,
            trans,
            b_order,
        })
    }

    /// `kind` over the tile as it is (no reshaped view).
    pub const fn of(kind: Kind) -> Pattern {
        Pattern { kind, view_cols: 0 }
    }

    /// Walk the tile's memory viewed as rows of `cols` elements (`name@cols` in text).
    pub const fn viewed_as(self, cols: u32) -> Pattern {
        Pattern {
            kind: self.kind,
            view_cols: cols,
        }
    }

    /// The name without the view: `row16`, `ldmatrix.x4[.trans][.b]`, `stmatrix.x4[.trans][.b]`, `col.ld`,
    /// `col.st`, `row.ld`, `row.st`, `mma.acc`.
    pub const fn name(&self) -> &'static str {
        match self.kind {
            Kind::Row16 => "row16",
            Kind::Matrix {
                store,
                trans,
                b_order,
            } => MATRIX_NAMES[store as usize * 4 + trans as usize * 2 + b_order as usize],
            Kind::Column { store: false } => "col.ld",
            Kind::Column { store: true } => "col.st",
            Kind::Row { store: false } => "row.ld",
            Kind::Row { store: true } => "row.st",
            Kind::MmaAcc => "mma.acc",
        }
    }

    /// The instruction every warp access of this pattern uses on `elem` elements.
    pub const fn op(&self, elem: Elem) -> Op {
        let eb = elem.bytes();
        match self.kind {
            Kind::Row16 => Op::STS128,
            Kind::Matrix {
                store: false,
                trans,
                ..
            } => Op::Ldmatrix {
                x: bank::Mats::X4,
                trans,
            },
            Kind::Matrix {
                store: true, trans, ..
            } => Op::Stmatrix {
                x: bank::Mats::X4,
                trans,
            },
            Kind::Column { store } | Kind::Row { store } => match Width::from_bytes(eb) {
                Some(w) if store => Op::Sts(w),
                Some(w) => Op::Lds(w),
                None => panic!("element too wide for one access"),
            },
            Kind::MmaAcc => match Width::from_bytes(2 * eb) {
                Some(w) => Op::Sts(w),
                None => panic!("element pair too wide for one access"),
            },
        }
    }

    /// `(rows, cols)` of the view walked over `tile`.
    pub const fn view(&self, tile: Tile) -> (u32, u32) {
        let line = match tile.order {
            Order::RowMajor => tile.cols,
            Order::ColMajor => tile.rows,
        };
        let cols = if self.view_cols == 0 {
            line
        } else {
            self.view_cols
        };
        (tile.len() / cols, cols)
    }

    /// The block one instruction covers, `(rows, bytes per row)`; a view must be a whole number of blocks.
    const fn block(&self, elem: Elem) -> (u32, u32) {
        let eb = elem.bytes();
        match self.kind {
            Kind::Row16 => (1, 16),
            Kind::Matrix { .. } => (16, 32),
            Kind::Column { .. } => (32, eb),
            Kind::Row { .. } => (1, 32 * eb),
            Kind::MmaAcc => (16, 8 * eb),
        }
    }

    /// Check that this pattern can walk `tile` (whole blocks; elements that fit the access).
    pub const fn check(&self, tile: Tile) -> Result<(), PatternError> {
        let eb = tile.elem.bytes();
        let bad_elem = match self.kind {
            Kind::Row16 | Kind::Matrix { .. } => eb > 16,
            Kind::Column { .. } | Kind::Row { .. } => eb > 16,
            Kind::MmaAcc => eb > 8,
        };
        if bad_elem {
            return Err(PatternError::Elem { elem_bytes: eb });
        }
        let (rows, cols) = self.view(tile);
        let (br, bb) = self.block(tile.elem);
        let row_bytes = cols as u64 * eb as u64;
        if rows * cols != tile.len()
            || !rows.is_multiple_of(br)
            || !row_bytes.is_multiple_of(bb as u64)
        {
            return Err(PatternError::Shape {
                rows,
                cols,
                block_rows: br,
                block_bytes: bb,
            });
        }
        Ok(())
    }

    /// [`Pattern::check`], and that `smem`'s layout keeps each lane's access whole ([`Smem::keeps_whole`]).
    pub const fn check_on(&self, smem: &Smem) -> Result<(), PatternError> {
        if let Err(e) = self.check(smem.tile()) {
            return Err(e);
        }
        let bytes = self.op(smem.tile().elem).bytes_per_lane();
        if !smem.keeps_whole(bytes) {
            return Err(PatternError::SplitsAccess { bytes });
        }
        Ok(())
    }

    /// Warp instructions needed to cover the tile once (0 if [`Pattern::check`] fails).
    pub const fn instructions(&self, tile: Tile) -> u32 {
        if self.check(tile).is_err() {
            return 0;
        }
        let (rows, cols) = self.view(tile);
        let (br, bb) = self.block(tile.elem);
        let blocks = (rows / br) * (cols * tile.elem.bytes() / bb);
        match self.kind {
            // 32 chunks per instruction; a tile smaller than 512 bytes still takes one.
            Kind::Row16 => blocks.div_ceil(32),
            Kind::MmaAcc => 2 * blocks,
            _ => blocks,
        }
    }

    /// How the walk repeats: advancing the instruction index by `instrs` moves every lane by `bytes` of the
    /// unswizzled tile (one block row; for `row16`, 32 chunks, except into the last instruction, whose chunks may
    /// wrap to the tile's start). The checker uses it to cost one period of the walk, not the whole tile.
    ///
    /// ```
    /// use swizzle_core::{pattern::Pattern, units::Elem, Order, Tile};
    /// let t = Tile::new(64, 64, Elem::F16, Order::RowMajor).unwrap();
    /// assert_eq!(Pattern::LDMATRIX_X4.instruction_step(t), (4, 16 * 128)); // 4 blocks of 16 rows x 32 bytes
    /// assert_eq!(Pattern::ROW16.instruction_step(t), (1, 512));
    /// ```
    pub const fn instruction_step(&self, tile: Tile) -> (u32, u64) {
        let eb = tile.elem.bytes();
        let (_, cols) = self.view(tile);
        let (br, bb) = self.block(tile.elem);
        let blocks_per_row = if cols * eb / bb == 0 {
            1
        } else {
            cols * eb / bb
        };
        let block_row = br as u64 * cols as u64 * eb as u64;
        match self.kind {
            Kind::Row16 => (1, 32 * 16),
            Kind::MmaAcc => (2 * blocks_per_row, block_row),
            _ => (blocks_per_row, block_row),
        }
    }

    /// Instructions whose lane offsets every other instruction repeats, moved: 2 for `mma.acc` (the upper and
    /// lower half of a fragment), 1 otherwise. See [`Pattern::translate_of`].
    pub const fn translate_sources(&self) -> u32 {
        match self.kind {
            Kind::MmaAcc => 2,
            _ => 1,
        }
    }

    /// `(r, delta)`: every lane of instruction `i` touches the element of the same lane of instruction `r`
    /// (`r < translate_sources()`) moved by `delta` bytes of the unswizzled tile. Each instruction covers one
    /// block and the lanes' places inside a block are the same for every block (for `mma.acc`, the same for each
    /// half); `row16`'s last instruction may wrap to the tile's start instead (callers walk it).
    pub const fn translate_of(&self, tile: Tile, i: u32) -> (u32, u64) {
        let r = i % self.translate_sources();
        let eb = tile.elem.bytes() as u64;
        let delta = (self.lane_offset(tile, i, 0) - self.lane_offset(tile, r, 0)) as u64 * eb;
        (r, delta)
    }

    /// Memory-order element offset that lane `lane` of instruction `i` touches (its first element; for matrices,
    /// the start of its 16-byte row). Instructions walk blocks row by row.
    pub const fn lane_offset(&self, tile: Tile, i: u32, lane: u32) -> u32 {
        let eb = tile.elem.bytes();
        let (_, cols) = self.view(tile);
        let (br, bb) = self.block(tile.elem);
        let blocks_per_row = cols * eb / bb;
        // (view row, view byte column) of the block's top-left corner, then the lane's place inside it.
        let (row, byte) = match self.kind {
            Kind::Row16 => {
                let q = (i * 32 + lane) % (tile.bytes() / 16);
                (q / blocks_per_row, (q % blocks_per_row) * 16)
            }
            Kind::Matrix { b_order, .. } => {
                let (r0, c0) = ((i / blocks_per_row) * br, (i % blocks_per_row) * bb);
                if b_order {
                    (r0 + (lane / 16) * 8 + lane % 8, c0 + ((lane / 8) % 2) * 16)
                } else {
                    (r0 + lane % 16, c0 + (lane / 16) * 16)
                }
            }
            Kind::Column { .. } => ((i / blocks_per_row) * br + lane, (i % blocks_per_row) * bb),
            Kind::Row { .. } => (
                (i / blocks_per_row) * br,
                (i % blocks_per_row) * bb + lane * eb,
            ),
            Kind::MmaAcc => {
                let (frag, half) = (i / 2, i % 2);
                let (r0, c0) = ((frag / blocks_per_row) * br, (frag % blocks_per_row) * bb);
                (r0 + lane / 4 + 8 * half, c0 + 2 * (lane % 4) * eb)
            }
        };
        row * cols + byte / eb
    }

    /// The 32 byte addresses of instruction `i` on `smem`.
    pub const fn addrs(&self, smem: &Smem, i: u32) -> [u32; WARP] {
        let mut a = [0u32; WARP];
        let mut lane = 0;
        while lane < WARP {
            a[lane] = smem.byte_addr_linear(self.lane_offset(smem.tile(), i, lane as u32));
            lane += 1;
        }
        a
    }

    /// Every warp instruction of this pattern over `layout`'s tile (any [`SmemLayout`]).
    pub fn accesses<L: SmemLayout + ?Sized>(
        &self,
        layout: &L,
    ) -> Result<Vec<Access>, PatternError> {
        accesses(layout, *self)
    }

    /// The tile-level report for this pattern on `smem`; an empty report if the pattern cannot walk the tile.
    pub fn report(&self, smem: &Smem) -> TileReport {
        let acc = if self.check_on(smem).is_ok() {
            self.accesses(smem).unwrap_or_default()
        } else {
            Vec::new()
        };
        TileReport::new(self.to_string(), &acc)
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        if self.view_cols != 0 {
            write!(f, "@{}", self.view_cols)?;
        }
        Ok(())
    }
}

/// A pattern name that is not one of [`Pattern::ALL`] (optionally with `@COLS`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePatternError(pub String);

impl fmt::Display for ParsePatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A known name with a bad view: the column count is what is wrong.
        if let Some((name, cols)) = self.0.trim().split_once('@') {
            if Pattern::ALL.iter().any(|p| p.name() == name.trim()) {
                return write!(
                    f,
                    "pattern {:?}: @COLS is the row width (in elements) to view the tile's memory as, a whole \
                     number >= 1; got {cols:?}",
                    self.0
                );
            }
        }
        let names: Vec<&str> = Pattern::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "unknown pattern {:?}: expected one of {} (optionally @COLS to view rows as COLS wide)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for ParsePatternError {}

impl FromStr for Pattern {
    type Err = ParsePatternError;

    /// `ldmatrix.x4`, `row16`, ..., or `NAME@COLS` for a view (`ldmatrix.x4@16`).
    fn from_str(s: &str) -> Result<Pattern, ParsePatternError> {
        let bad = || ParsePatternError(s.to_string());
        let (name, view) = match s.trim().split_once('@') {
            Some((n, v)) => (n, v.parse::<u32>().ok().filter(|&v| v > 0).ok_or_else(bad)?),
            None => (s.trim(), 0),
        };
        let p = Pattern::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(bad)?;
        Ok(p.viewed_as(view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swizzle::Swizzle;
    use crate::units::{SwizzleIn, Unit};
    fn f16(rows: u32, cols: u32) -> Smem {
        Smem::row_major(rows, cols, Elem::F16)
    }

    #[test]
    fn patterns_cover_the_tile_exactly_once() {
        // Every element is touched by exactly one lane access (counting every element a lane's access spans).
        let tiles = [
            Smem::row_major(64, 64, Elem::F16),
            Smem::row_major(32, 32, Elem::F32),
            Smem::row_major(16, 256, Elem::F16),
        ];
        for smem in tiles {
            for p in Pattern::ALL
                .into_iter()
                .chain([Pattern::LDMATRIX_X4.viewed_as(16)])
            {
                if p.check(smem.tile()).is_err() {
                    continue;
                }
                let eb = smem.tile().elem.bytes();
                let span = p.op(smem.tile().elem).bytes_per_lane() / eb;
                let mut hits = vec![0u32; smem.tile().len() as usize];
                for i in 0..p.instructions(smem.tile()) {
                    for lane in 0..p.op(smem.tile().elem).address_lanes() {
                        let o = p.lane_offset(smem.tile(), i, lane);
                        for e in o..o + span {
                            hits[e as usize] += 1;
                        }
                    }
                }
                assert!(
                    hits.iter().all(|&h| h == 1),
                    "{p} on {smem}: {:?}",
                    &hits[..16]
                );
            }
        }
    }

    #[test]
    fn known_costs() {
        let plain = f16(64, 64);
        // ldmatrix.x4 unswizzled: 8 rows of 128 B per matrix, same banks -> 8 per phase.
        assert_eq!(Pattern::LDMATRIX_X4.instructions(plain.tile()), 16);
        assert_eq!(Pattern::LDMATRIX_X4.report(&plain).wavefronts, 16 * 4 * 8);
        assert_eq!(Pattern::ROW16.report(&plain).conflicts(), 0);
        let sw = plain.with_swizzle(Swizzle::new(3, 3, 3));
        for p in [
            Pattern::ROW16,
            Pattern::LDMATRIX_X4,
            Pattern::LDMATRIX_X4_B,
            Pattern::LDMATRIX_X4_TRANS,
        ] {
            assert_eq!(p.report(&sw).conflicts(), 0, "{p}");
        }
        // Byte-unit spelling of the same layout gives the same addresses.
        let sw_bytes = plain.with_swizzle_in(SwizzleIn::new(Swizzle::new(3, 4, 3), Unit::Bytes));
        for i in 0..16 {
            assert_eq!(
                Pattern::LDMATRIX_X4.addrs(&sw, i),
                Pattern::LDMATRIX_X4.addrs(&sw_bytes, i)
            );
        }
    }

    #[test]
    fn transpose_tile_padding() {
        let t = Smem::row_major(32, 32, Elem::F32);
        assert_eq!(Pattern::COL_LD.report(&t).wavefronts, 32 * 32);
        assert_eq!(Pattern::COL_LD.report(&t.with_padding(4)).conflicts(), 0);
        assert_eq!(Pattern::ROW_ST.report(&t.with_padding(4)).conflicts(), 0);
        assert_eq!(
            Pattern::COL_LD
                .report(&t.with_swizzle(Swizzle::new(5, 0, 5)))
                .conflicts(),
            0
        );
    }

    #[test]
    fn names_round_trip() {
        for p in Pattern::ALL {
            assert_eq!(p.to_string().parse::<Pattern>(), Ok(p));
            assert_eq!(
                p.viewed_as(16).to_string().parse::<Pattern>(),
                Ok(p.viewed_as(16))
            );
        }
        assert!("ldmatrix.x3".parse::<Pattern>().is_err());
        assert!("row16@0".parse::<Pattern>().is_err());
    }
}
