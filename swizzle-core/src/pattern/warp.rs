//! Warp accesses as data: for each warp instruction and each lane, the `(row, col)` of the tile it touches.
//!
//! A [`WarpAccess`] is a `const` value owned by whoever issues the instructions. It is either
//!
//! - a **thread-value layout** (CuTe's name): the lane index and the instruction index are each read as a
//!   mixed-radix number, first digit fastest, and every digit moves the coordinate by its own `(row, col)` stride:
//!
//!   ```text
//!     lane  = l0 + L0 * (l1 + L1 * (l2 + ...))          instr = i0 + I0 * (i1 + I1 * (...))
//!     (row, col) = sum over lane digits  lk * (row_k, col_k)  +  sum over instr digits  ik * (row_k, col_k)
//!   ```
//!   This is how a kernel family describes its own accesses (the transpose's register-transposed block
//!   stores, a stencil's halo loads, an mma fragment's stores): one digit per loop or thread-index split in the
//!   kernel, so the description reads like the kernel's index math, and nothing else has to know about it;
//! - or a **generic tile walk**: one of swizzle-core's [`Pattern`]s (`ldmatrix.x4[.trans]`, `stmatrix.x4`, 16-byte
//!   row copies, `lds`/`sts` rows and columns, `mma.acc`), which covers any tile it fits, views included.
//!
//! Either way the checker ([`crate::verify`], `assert_conflict_free!`), the reports ([`WarpAccess::report`]) and
//! the kernel families read the same value, through the one layout type [`Smem`].
//!
//! ```
//! use swizzle_core::bank::Op;
//! use swizzle_core::pattern::{Pattern, WarpAccess};
//! use swizzle_core::{Elem, Smem, Swizzle};
//! // A 32x32 f32 tile; lane i reads row i of column c, one instruction per column: a column read.
//! const COL: WarpAccess = WarpAccess::new("col.ld", Op::LDS32).lane(32, 1, 0).instr(32, 0, 1);
//! const PADDED: Smem = Smem::row_major(32, 32, Elem::F32).with_padding(4);
//! assert_eq!(COL.coord(&PADDED, 5, 7), (7, 5));
//! assert_eq!(COL.report(&PADDED).conflicts(), 0);
//! assert_eq!(COL.report(&Smem::row_major(32, 32, Elem::F32)).wavefronts, 32 * 32);
//! // The same instructions as swizzle-core's generic column pattern:
//! assert_eq!(COL.report(&PADDED).wavefronts, Pattern::COL_LD.warp().report(&PADDED).wavefronts);
//! swizzle_core::assert_conflict_free!(PADDED, COL, Pattern::ROW_ST);
//! ```

use super::{Access, Pattern, PatternError, Smem, TileReport};
use crate::bank::{Op, WARP};
use core::fmt;

/// Most digits a lane or instruction index may be split into.
pub const MAX_DIGITS: usize = 8;

/// One digit of a mixed-radix index: `size` values, each step moving the coordinate by `(row, col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Digit {
    /// Values the digit takes.
    pub size: u32,
    /// Rows moved per step.
    pub row: u32,
    /// Columns moved per step.
    pub col: u32,
}

/// A mixed-radix split of an index (first digit fastest), each digit with its `(row, col)` stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Digits {
    d: [Digit; MAX_DIGITS],
    n: usize,
}

impl Digits {
    /// No digits: every index maps to `(0, 0)`, and [`Digits::count`] is 1.
    pub const EMPTY: Digits = Digits {
        d: [Digit {
            size: 1,
            row: 0,
            col: 0,
        }; MAX_DIGITS],
        n: 0,
    };

    /// Add the next (slower) digit. Panics (a compile error in `const`) past [`MAX_DIGITS`] or for `size` 0.
    pub const fn then(mut self, size: u32, row: u32, col: u32) -> Digits {
        assert!(self.n < MAX_DIGITS, "too many digits in a warp access");
        assert!(size > 0, "a digit of size 0");
        self.d[self.n] = Digit { size, row, col };
        self.n += 1;
        self
    }

    /// How many indices the digits cover: the product of the sizes.
    pub const fn count(&self) -> u32 {
        let mut c = 1u32;
        let mut k = 0;
        while k < self.n {
            c *= self.d[k].size;
            k += 1;
        }
        c
    }

    /// The `(row, col)` offset of `index` (taken modulo [`Digits::count`]).
    pub const fn coord(&self, index: u32) -> (u32, u32) {
        let (mut r, mut c, mut x) = (0u32, 0u32, index);
        let mut k = 0;
        while k < self.n {
            let d = self.d[k];
            let v = x % d.size;
            r += v * d.row;
            c += v * d.col;
            x /= d.size;
            k += 1;
        }
        (r, c)
    }

    /// The digits, fastest first.
    pub fn digits(&self) -> &[Digit] {
        &self.d[..self.n]
    }
}

/// How a [`WarpAccess`] chooses its coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum How {
    Walk(Pattern),
    Tv { lanes: Digits, instrs: Digits },
}

/// A warp access pattern as data: the instruction, and for each instruction index and lane the `(row, col)` it
/// touches (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WarpAccess {
    name: &'static str,
    op: Op,
    how: How,
}

impl WarpAccess {
    /// A thread-value layout with no digits yet (one instruction, every lane at `(0, 0)`): add them with
    /// [`WarpAccess::lane`] and [`WarpAccess::instr`].
    pub const fn new(name: &'static str, op: Op) -> WarpAccess {
        WarpAccess {
            name,
            op,
            how: How::Tv {
                lanes: Digits::EMPTY,
                instrs: Digits::EMPTY,
            },
        }
    }

    /// Add the next lane digit: `size` lanes, each `(row, col)` further on. The lane digits must cover exactly the
    /// lanes that give addresses ([`Op::address_lanes`], 32 for `lds`/`sts`/`ldmatrix.x4`).
    pub const fn lane(self, size: u32, row: u32, col: u32) -> WarpAccess {
        match self.how {
            How::Tv { lanes, instrs } => WarpAccess {
                how: How::Tv {
                    lanes: lanes.then(size, row, col),
                    instrs,
                },
                ..self
            },
            How::Walk(_) => panic!("lane digits on a generic pattern"),
        }
    }

    /// Add the next instruction digit: `size` instructions, each `(row, col)` further on.
    pub const fn instr(self, size: u32, row: u32, col: u32) -> WarpAccess {
        match self.how {
            How::Tv { lanes, instrs } => WarpAccess {
                how: How::Tv {
                    lanes,
                    instrs: instrs.then(size, row, col),
                },
                ..self
            },
            How::Walk(_) => panic!("instruction digits on a generic pattern"),
        }
    }

    /// swizzle-core's generic tile walk `p` (its instruction depends on the element type of the tile).
    pub const fn walk(p: Pattern) -> WarpAccess {
        WarpAccess {
            name: p.name(),
            op: Op::STS128, // unused: `op` asks the pattern
            how: How::Walk(p),
        }
    }

    /// Itself: lets `assert_conflict_free!` take a [`WarpAccess`] or a [`Pattern`] (which has `warp()` too).
    pub const fn warp(self) -> WarpAccess {
        self
    }

    /// The name the checker's messages and the reports print.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The same access under another name.
    pub const fn named(self, name: &'static str) -> WarpAccess {
        WarpAccess { name, ..self }
    }

    /// The generic pattern, when this is one.
    pub const fn pattern(&self) -> Option<Pattern> {
        match self.how {
            How::Walk(p) => Some(p),
            How::Tv { .. } => None,
        }
    }

    /// The instruction every access uses on `smem`'s element type.
    pub const fn op(&self, smem: &Smem) -> Op {
        match self.how {
            How::Walk(p) => p.op(smem.elem()),
            How::Tv { .. } => self.op,
        }
    }

    /// Warp instructions in all (0 when a generic pattern cannot walk the tile).
    pub const fn instructions(&self, smem: &Smem) -> u32 {
        match self.how {
            How::Walk(p) => p.instructions(smem.tile()),
            How::Tv { instrs, .. } => instrs.count(),
        }
    }

    /// The `(row, col)` that `lane` of instruction `i` touches (its first element).
    pub const fn coord(&self, smem: &Smem, i: u32, lane: u32) -> (u32, u32) {
        match self.how {
            How::Walk(p) => smem.tile().coord(p.lane_offset(smem.tile(), i, lane)),
            How::Tv { lanes, instrs } => {
                let (lr, lc) = lanes.coord(lane);
                let (ir, ic) = instrs.coord(i);
                (lr + ir, lc + ic)
            }
        }
    }

    /// The 32 byte addresses of instruction `i` on `smem` (lanes past [`Op::address_lanes`] repeat the first
    /// ones; the bank model ignores them).
    pub const fn addrs(&self, smem: &Smem, i: u32) -> [u32; WARP] {
        if let How::Walk(p) = self.how {
            return p.addrs(smem, i);
        }
        let n = self.lane_count();
        let mut a = [0u32; WARP];
        let mut lane = 0;
        while lane < WARP {
            let (r, c) = self.coord(smem, i, lane as u32 % n);
            a[lane] = smem.byte_addr(r, c);
            lane += 1;
        }
        a
    }

    /// Lanes the lane digits cover (32 for a generic pattern).
    const fn lane_count(&self) -> u32 {
        match self.how {
            How::Walk(_) => WARP as u32,
            How::Tv { lanes, .. } => lanes.count(),
        }
    }

    /// Check that the access can be issued on `smem`: a generic pattern fits the tile ([`Pattern::check_on`]);
    /// a thread-value layout gives exactly the op's address lanes, stays inside the tile, and every lane's access
    /// is aligned and kept whole by the layout.
    pub const fn check_on(&self, smem: &Smem) -> Result<(), PatternError> {
        if let How::Walk(p) = self.how {
            return p.check_on(smem);
        }
        let op = self.op;
        let expected = op.address_lanes();
        if self.lane_count() != expected {
            return Err(PatternError::Lanes {
                lanes: self.lane_count(),
                expected,
            });
        }
        let bytes = op.bytes_per_lane();
        if !smem.keeps_whole(bytes) {
            return Err(PatternError::SplitsAccess { bytes });
        }
        let tile = smem.tile();
        let eb = tile.elem.bytes();
        let n = self.instructions(smem);
        let mut i = 0;
        while i < n {
            let mut lane = 0;
            while lane < expected {
                let (row, col) = self.coord(smem, i, lane);
                if row >= tile.rows || col >= tile.cols {
                    return Err(PatternError::OutOfTile {
                        instruction: i,
                        lane,
                        row,
                        col,
                    });
                }
                // The lane's bytes must be one aligned run of the unswizzled tile (then `keeps_whole` keeps it so).
                let linear = tile.linear(row, col);
                let line = smem.line_len();
                if !(linear * eb).is_multiple_of(bytes) || (linear % line) * eb + bytes > line * eb
                {
                    return Err(PatternError::Misaligned {
                        instruction: i,
                        lane,
                        bytes,
                    });
                }
                lane += 1;
            }
            i += 1;
        }
        Ok(())
    }

    /// Every warp instruction on `smem`.
    pub fn accesses(&self, smem: &Smem) -> Result<Vec<Access>, PatternError> {
        self.check_on(smem)?;
        let op = self.op(smem);
        Ok((0..self.instructions(smem))
            .map(|i| Access {
                op,
                addrs: self.addrs(smem, i),
            })
            .collect())
    }

    /// The tile-level report on `smem`; an empty report if the access cannot be issued there.
    pub fn report(&self, smem: &Smem) -> TileReport {
        TileReport::new(self.name, &self.accesses(smem).unwrap_or_default())
    }

    /// The instruction digits, fastest first (empty for a generic pattern).
    pub const fn instr_digits(&self) -> &[Digit] {
        match &self.how {
            How::Walk(_) => &[],
            How::Tv { instrs, .. } => instrs.d.split_at(instrs.n).0,
        }
    }

    /// The lane and instruction digits (empty for a generic pattern).
    pub fn digits(&self) -> (&[Digit], &[Digit]) {
        match &self.how {
            How::Walk(_) => (&[], &[]),
            How::Tv { lanes, instrs } => (lanes.digits(), instrs.digits()),
        }
    }
}

impl Pattern {
    /// This generic pattern as a [`WarpAccess`].
    pub const fn warp(self) -> WarpAccess {
        WarpAccess::walk(self)
    }
}

impl fmt::Display for WarpAccess {
    /// The name, then for a thread-value layout the op and the digits: `write (sts128): lanes 16x(4,0) 2x(0,4),
    /// instrs 4x(1,0) 8x(0,8)` (`size x (row, col)` stride each, fastest first).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        if let How::Tv { lanes, instrs } = &self.how {
            write!(f, " ({}): lanes", self.op.name())?;
            for d in lanes.digits() {
                write!(f, " {}x({},{})", d.size, d.row, d.col)?;
            }
            f.write_str(", instrs")?;
            for d in instrs.digits() {
                write!(f, " {}x({},{})", d.size, d.row, d.col)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Elem;
    use crate::Swizzle;

    /// A thread-value layout that spells a generic pattern issues exactly the pattern's instructions, on every
    /// layout: `row.st` on a 32x32 f32 tile is lane -> column, instruction -> row.
    #[test]
    fn tv_layout_equals_the_generic_pattern() {
        let row_st = WarpAccess::new("row.st", Op::STS32)
            .lane(32, 0, 1)
            .instr(32, 1, 0);
        let plain = Smem::row_major(32, 32, Elem::F32);
        for smem in [
            plain,
            plain.with_padding(4),
            plain.with_swizzle(Swizzle::new(5, 0, 5)),
            plain.with_swizzle(Swizzle::new(3, 2, 3)).with_padding(16),
        ] {
            assert_eq!(
                row_st.accesses(&smem).unwrap(),
                Pattern::ROW_ST.warp().accesses(&smem).unwrap(),
                "{smem}"
            );
        }
    }

    #[test]
    fn check_on_refuses_bad_descriptions() {
        let smem = Smem::row_major(32, 32, Elem::F32);
        let short = WarpAccess::new("x", Op::LDS32).lane(16, 1, 0);
        assert_eq!(
            short.check_on(&smem),
            Err(PatternError::Lanes {
                lanes: 16,
                expected: 32
            })
        );
        let out = WarpAccess::new("x", Op::LDS32)
            .lane(32, 1, 0)
            .instr(33, 0, 1);
        assert!(matches!(
            out.check_on(&smem),
            Err(PatternError::OutOfTile {
                instruction: 32,
                ..
            })
        ));
        // 16-byte accesses starting at odd columns.
        let odd = WarpAccess::new("x", Op::LDS128)
            .lane(32, 1, 0)
            .instr(2, 0, 2);
        assert!(matches!(
            odd.check_on(&smem),
            Err(PatternError::Misaligned { instruction: 1, .. })
        ));
        assert!(odd.report(&smem).instructions == 0);
    }

    #[test]
    fn digits_are_mixed_radix() {
        let d = Digits::EMPTY.then(4, 1, 0).then(2, 0, 8).then(3, 100, 0);
        assert_eq!(d.count(), 24);
        assert_eq!(d.coord(0), (0, 0));
        assert_eq!(d.coord(3), (3, 0));
        assert_eq!(d.coord(4), (0, 8));
        assert_eq!(d.coord(23), (203, 8));
        assert_eq!(d.coord(24), (0, 0));
        let w = WarpAccess::new("w", Op::STS128)
            .lane(16, 4, 0)
            .lane(2, 0, 4);
        assert_eq!(w.to_string(), "w (sts128): lanes 16x(4,0) 2x(0,4), instrs");
    }
}
