//! Compile-time bank-conflict checks: [`assert_conflict_free!`](crate::assert_conflict_free) fails the build
//! when a declared (tile, layout, pattern) conflicts, naming the pattern, the instruction, the phase and the lanes.
//!
//! How it works, all in `const`: [`check`] walks every instruction of the pattern ([`Pattern::addrs`]) through
//! [`bank::wavefronts`]; at the first instruction costing more than its ideal it builds the explanation from
//! [`bank::report`] into a fixed byte buffer ([`Message`]), which `core::str::from_utf8` turns into a `&str` that
//! the macro hands to `panic!("{}", msg)`. Const evaluation reports that panic as the compile error, at the
//! macro's call site.
//!
//! ```
//! use swizzle_core::{assert_conflict_free, pattern::{Pattern, Smem}, units::Elem, Swizzle};
//! const TILE: Smem = Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));
//! assert_conflict_free!(TILE, Pattern::ROW16, Pattern::LDMATRIX_X4);
//! // The plain-`assert!` idiom works too:
//! const _: () = assert!(swizzle_core::verify::is_conflict_free(&TILE, Pattern::LDMATRIX_X4_TRANS));
//! ```
//!
//! ```compile_fail
//! use swizzle_core::{assert_conflict_free, pattern::{Pattern, Smem}, units::Elem};
//! // Unswizzled: ldmatrix's 8 rows of 128 bytes all start in bank 0.
//! assert_conflict_free!(Smem::row_major(64, 64, Elem::F16), Pattern::LDMATRIX_X4);
//! ```

use crate::bank::{self, WARP};
use crate::compose::SwizzleFn;
use crate::pattern::{Pattern, PatternError, Smem, WarpAccess};
use crate::swizzle::Swizzle;
use crate::tile::{Order, MAX_SMEM_BYTES};
use crate::units::Unit;

/// Capacity of a [`Message`] in bytes.
pub const MESSAGE_BYTES: usize = 512;

/// A message built in `const`: UTF-8 bytes in a fixed buffer. Empty means "no problem".
#[derive(Clone, Copy, Debug)]
pub struct Message {
    buf: [u8; MESSAGE_BYTES],
    len: usize,
}

impl Message {
    /// No message: the check passed.
    pub const EMPTY: Message = Message {
        buf: [0; MESSAGE_BYTES],
        len: 0,
    };

    /// The text, or `None` when the check passed.
    pub const fn as_str(&self) -> Option<&str> {
        if self.len == 0 {
            return None;
        }
        let (text, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(s) => Some(s),
            Err(_) => None,
        }
    }

    /// `a`, `b` and `c`, then this message: a caller naming what it checked (`spec NAME: bank conflict: ...`).
    pub const fn prefixed(self, a: &str, b: &str, c: &str) -> Message {
        let mut m = Message::EMPTY.str(a).str(b).str(c);
        let mut i = 0;
        while i < self.len && m.len < MESSAGE_BYTES {
            m.buf[m.len] = self.buf[i];
            m.len += 1;
            i += 1;
        }
        m
    }

    const fn str(mut self, s: &str) -> Message {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < MESSAGE_BYTES {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn num(self, n: u32) -> Message {
        self.num64(n as u64)
    }

    const fn num64(self, n: u64) -> Message {
        let mut digits = [0u8; 20];
        let (mut n, mut k) = (n, 0);
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut m = self;
        while k > 0 && m.len < MESSAGE_BYTES {
            k -= 1;
            m.buf[m.len] = digits[k];
            m.len += 1;
        }
        m
    }

    const fn int(self, n: i32) -> Message {
        if n < 0 {
            self.str("-").num(n.unsigned_abs())
        } else {
            self.num(n as u32)
        }
    }

    const fn swizzle(self, s: Swizzle) -> Message {
        self.str("Sw<")
            .num(s.bits)
            .str(",")
            .num(s.base)
            .str(",")
            .int(s.shift)
            .str(">")
    }

    /// `64x64 f16 row-major, Sw<3,3,3> on f16` (the same words as `Smem`'s `Display`).
    const fn smem(self, smem: &Smem) -> Message {
        let t = smem.tile();
        let m = self
            .num(t.rows)
            .str("x")
            .num(t.cols)
            .str(" ")
            .str(t.elem.name());
        let m = match t.order {
            Order::RowMajor => m.str(" row-major, "),
            Order::ColMajor => m.str(" col-major, "),
        };
        let m = if smem.is_swizzled() {
            let m = match smem.swizzle() {
                SwizzleFn::Single(s) => m.swizzle(s),
                SwizzleFn::Composed(c) => m.swizzle(c.first).str(" then ").swizzle(c.second),
            };
            match smem.unit() {
                Unit::Bytes => m.str(" on bytes"),
                Unit::Elems(e) => m.str(" on ").str(e.name()),
            }
        } else if smem.pad_bytes() == 0 {
            m.str("unswizzled")
        } else {
            m
        };
        match (smem.is_swizzled(), smem.pad_bytes()) {
            (_, 0) => m,
            (false, p) => m.str("padded +").num(p).str(" B per row"),
            (true, p) => m.str(", padded +").num(p).str(" B per row"),
        }
    }
}

/// Refuse a layout larger than one block's shared memory ([`MAX_SMEM_BYTES`], 227 KiB on sm_90), padding
/// included: no kernel could use it, and walking it instruction by instruction in `const` would take minutes.
/// Empty when it fits.
///
/// ```
/// use swizzle_core::{pattern::Smem, units::Elem, verify::check_size};
/// assert!(check_size(&Smem::row_major(128, 64, Elem::F16)).as_str().is_none());
/// let big = check_size(&Smem::row_major(1024, 1024, Elem::F16));
/// assert!(big.as_str().unwrap().contains("2097152 bytes"));
/// ```
pub const fn check_size(smem: &Smem) -> Message {
    if smem.bytes() <= MAX_SMEM_BYTES as u64 {
        return Message::EMPTY;
    }
    Message::EMPTY
        .str("tile ")
        .smem(smem)
        .str(" occupies ")
        .num64(smem.bytes())
        .str(" bytes; one block's shared memory holds at most ")
        .num(MAX_SMEM_BYTES)
        .str(" (227 KiB on sm_90)")
}

/// The first instruction of `pattern` on `smem` that costs more than its ideal, with its index.
pub const fn first_conflict(smem: &Smem, pattern: Pattern) -> Option<(u32, bank::Report)> {
    first_conflict_warp(smem, &pattern.warp())
}

/// [`first_conflict`] for any [`WarpAccess`].
pub const fn first_conflict_warp(smem: &Smem, pattern: &WarpAccess) -> Option<(u32, bank::Report)> {
    let op = pattern.op(smem);
    let n = pattern.instructions(smem);
    let mut i = 0;
    while i < n {
        let addrs: [u32; WARP] = pattern.addrs(smem, i);
        if bank::wavefronts(op, &addrs) > bank::ideal(op, &addrs) {
            return Some((i, bank::report(op, &addrs)));
        }
        i += 1;
    }
    None
}

/// True when the pattern can walk the tile and every instruction is conflict-free.
pub const fn is_conflict_free(smem: &Smem, pattern: Pattern) -> bool {
    is_conflict_free_warp(smem, &pattern.warp())
}

/// [`is_conflict_free`] for any [`WarpAccess`].
pub const fn is_conflict_free_warp(smem: &Smem, access: &WarpAccess) -> bool {
    smem.bytes() <= MAX_SMEM_BYTES as u64
        && access.check_on(smem).is_ok()
        && first_conflict_warp(smem, access).is_none()
}

/// Check one pattern on one tile; the message is empty when it is conflict-free, else it explains the first
/// conflicting instruction: pattern, tile, instruction index, cost, worst phase, bank, and the colliding lanes.
pub const fn check(smem: &Smem, pattern: Pattern) -> Message {
    check_warp(smem, &pattern.warp())
}

/// [`check`] for any [`WarpAccess`]: what `assert_conflict_free!` calls.
pub const fn check_warp(smem: &Smem, pattern: &WarpAccess) -> Message {
    let too_big = check_size(smem);
    if too_big.as_str().is_some() {
        return too_big;
    }
    let name = pattern.name();
    if let Err(e) = pattern.check_on(smem) {
        let m = Message::EMPTY
            .str("pattern ")
            .str(name)
            .str(" cannot walk tile ")
            .smem(smem)
            .str(": ");
        return match e {
            PatternError::Shape {
                rows,
                cols,
                block_rows,
                block_bytes,
            } => m
                .str("a ")
                .num(rows)
                .str("x")
                .num(cols)
                .str(" view is not a whole number of ")
                .num(block_rows)
                .str("-row x ")
                .num(block_bytes)
                .str("-byte blocks"),
            PatternError::Elem { elem_bytes } => m
                .num(elem_bytes)
                .str("-byte elements do not fit this pattern"),
            PatternError::SplitsAccess { bytes } => m
                .str("the layout does not keep each lane's ")
                .num(bytes)
                .str("-byte access contiguous and aligned"),
            PatternError::Lanes { lanes, expected } => m
                .str("the lane digits cover ")
                .num(lanes)
                .str(" lanes; the instruction takes ")
                .num(expected)
                .str(" addresses"),
            PatternError::OutOfTile {
                instruction,
                lane,
                row,
                col,
            } => m
                .str("lane ")
                .num(lane)
                .str(" of instruction ")
                .num(instruction)
                .str(" touches (")
                .num(row)
                .str(", ")
                .num(col)
                .str("), outside the tile"),
            PatternError::Misaligned {
                instruction,
                lane,
                bytes,
            } => m
                .str("lane ")
                .num(lane)
                .str(" of instruction ")
                .num(instruction)
                .str(" starts a ")
                .num(bytes)
                .str("-byte access that is not aligned within one line"),
        };
    }
    let Some((i, r)) = first_conflict_warp(smem, pattern) else {
        return Message::EMPTY;
    };
    let p = r.worst_phase();
    let mut m = Message::EMPTY
        .str("bank conflict: ")
        .str(name)
        .str(if crate::units::names::str_eq(name, r.op.name()) {
            ""
        } else {
            " ("
        })
        .str(if crate::units::names::str_eq(name, r.op.name()) {
            ""
        } else {
            r.op.name()
        })
        .str(if crate::units::names::str_eq(name, r.op.name()) {
            " on "
        } else {
            ") on "
        })
        .smem(smem)
        .str(": instruction ")
        .num(i)
        .str(" of ")
        .num(pattern.instructions(smem))
        .str(" costs ")
        .num(r.wavefronts)
        .str(" wavefronts (ideal ")
        .num(r.ideal)
        .str("); in phase lanes ")
        .num(p.first_lane)
        .str("..")
        .num(p.first_lane + p.lanes)
        .str(" bank ")
        .num(p.worst_bank)
        .str(" gets ")
        .num(p.wavefronts)
        .str(" distinct words from lanes");
    let mut l = 0;
    while l < 32 {
        if p.lanes_in_worst_bank >> l & 1 == 1 {
            m = m.str(" ").num(l).str("@").num(r.addrs[l as usize]);
        }
        l += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Elem;

    #[test]
    fn message_names_pattern_phase_and_lanes() {
        let plain = Smem::row_major(64, 64, Elem::F16);
        let m = check(&plain, Pattern::LDMATRIX_X4);
        assert_eq!(
            m.as_str().unwrap(),
            "bank conflict: ldmatrix.x4 on 64x64 f16 row-major, unswizzled: instruction 0 of 16 \
             costs 32 wavefronts (ideal 4); in phase lanes 0..8 bank 0 gets 8 distinct words from lanes 0@0 1@128 \
             2@256 3@384 4@512 5@640 6@768 7@896"
        );
        assert!(check(
            &plain.with_swizzle(Swizzle::new(3, 3, 3)),
            Pattern::LDMATRIX_X4
        )
        .as_str()
        .is_none());
        assert!(check(&plain, Pattern::ROW16).as_str().is_none());
        let bad = check(&Smem::row_major(8, 8, Elem::F16), Pattern::LDMATRIX_X4);
        assert!(
            bad.as_str().unwrap().contains("cannot walk tile"),
            "{:?}",
            bad.as_str()
        );
        let split = check(&plain.with_swizzle(Swizzle::new(3, 2, 3)), Pattern::ROW16);
        assert!(
            split
                .as_str()
                .unwrap()
                .ends_with("16-byte access contiguous and aligned"),
            "{:?}",
            split.as_str()
        );
        assert!(!is_conflict_free(
            &Smem::row_major(32, 32, Elem::F32).with_padding(4),
            Pattern::ROW16
        ));
    }

    #[test]
    fn long_messages_are_cut_not_broken() {
        let m = Message::EMPTY.str(&"ab".repeat(400));
        assert_eq!(m.as_str().unwrap().len(), MESSAGE_BYTES);
    }
}
