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

mod classes;

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

/// Refuse a layout whose swizzle's period does not divide the tile (it would move elements out of it, the rule
/// `Smem::validate` states), or one larger than one block's shared memory ([`MAX_SMEM_BYTES`], 227 KiB on sm_90), padding
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
    if let Err(crate::tile::TileError::PeriodDoesNotDivide {
        swizzle,
        period,
        elems,
    }) = smem.validate()
    {
        return Message::EMPTY
            .str("tile ")
            .smem(smem)
            .str(": ")
            .swizzle(swizzle)
            .str(" repeats every ")
            .num64(period)
            .str(" elements, which does not divide the tile's ")
            .num(elems)
            .str(" elements, so it would move elements out of the tile");
    }
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

/// [`first_conflict`] for any [`WarpAccess`]. It costs one instruction per cost class of the walk, not the whole
/// tile: a generic pattern whose instructions are not all XOR translates of its first ones is walked by cost class
/// (`verify/classes.rs`), the others by their [`Period`].
pub const fn first_conflict_warp(smem: &Smem, pattern: &WarpAccess) -> Option<(u32, bank::Report)> {
    let op = pattern.op(smem);
    let period = Period::of(smem, pattern);
    if let Some(p) = pattern.pattern() {
        if !period.all_translate {
            return classes::Classes::of(smem, p).first_conflict(period.len);
        }
    }
    let mut i = period.first();
    while let Some(k) = i {
        let addrs: [u32; WARP] = pattern.addrs(smem, k);
        if bank::wavefronts(op, &addrs) > bank::ideal(op, &addrs) {
            return Some((k, bank::report(op, &addrs)));
        }
        i = period.next(k);
    }
    None
}

/// True when moving every address of an instruction by `delta` bytes of the unswizzled tile leaves its cost
/// unchanged, because the layout is periodic:
///
/// - a swizzle (each layer) changes only the bits below its span, so a multiple of its period (in bytes) passes
///   through it unchanged: `f(b + delta) = f(b) + delta`;
/// - padding adds `pad` bytes per line, so a whole number of lines moves the padded address by
///   `delta + delta / line * pad`;
/// - the bank model counts, per bank group, the distinct units (words, or the 8- and 16-byte units of wider
///   accesses) a phase touches; a move of every lane by the same whole number of units (`align` =
///   `1 << op.unit_shift()` bytes) rotates the groups and keeps which lanes share a unit, so it costs the same
///   wavefronts.
const fn moves_by_a_period(smem: &Smem, delta: u64, align: u64) -> bool {
    let period = smem.swizzle().period();
    let unit = 1u64 << smem.unit().log2_bytes();
    period <= u64::MAX / unit
        && delta.is_multiple_of(period * unit)
        && padding_moves_whole_units(smem, delta, align)
}

/// The least `k >= 1` for which [`moves_by_a_period`] holds for `k * bytes` (`u64::MAX` when none fits), without
/// trying each `k`: `k * bytes` must be a multiple of `M = lcm(period bytes, line bytes when padded)`, which the
/// multiples of `k0 = M / gcd(bytes, M)` are; the padded move of `m * k0 * bytes` is `m * W`
/// (`W = D0 + D0 / line * pad`, `D0 = k0 * bytes`), a whole number of units first at `m = align / gcd(W, align)`.
const fn first_period_step(smem: &Smem, bytes: u64, align: u64) -> u64 {
    let period = smem.swizzle().period() as u128;
    let unit = 1u128 << smem.unit().log2_bytes();
    let pad = smem.pad_bytes() as u128;
    let line = smem.line_len() as u128 * smem.elem().bytes() as u128;
    let (bytes, align) = (bytes as u128, align as u128);
    if bytes == 0 || align == 0 || period * unit > u64::MAX as u128 || (pad > 0 && line == 0) {
        return u64::MAX;
    }
    let mut m = period * unit;
    if pad > 0 {
        m = m / gcd(m, line) * line;
    }
    let k0 = m / gcd(bytes, m);
    let d0 = k0 * bytes;
    let w = if pad == 0 { d0 } else { d0 + d0 / line * pad };
    let k = k0 * (align / gcd(w, align));
    if k > u64::MAX as u128 {
        u64::MAX
    } else {
        k as u64
    }
}

/// Greatest common divisor.
const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// The padding part of [`moves_by_a_period`]: `delta` is whole lines (when padded) and the padded move is a
/// whole number of `align`-byte units.
const fn padding_moves_whole_units(smem: &Smem, delta: u64, align: u64) -> bool {
    let pad = smem.pad_bytes() as u64;
    let line = smem.line_len() as u64 * smem.elem().bytes() as u64;
    let moved = if pad == 0 {
        delta
    } else if line == 0 || !delta.is_multiple_of(line) {
        return false;
    } else {
        delta + delta / line * pad
    };
    moved.is_multiple_of(align)
}

/// The two fields of the swizzle layers, in bits of the byte address: `(low, high)` where every layer's lower
/// field lies below bit `low` and every layer's upper field starts at or above bit `high` (`(0, 64)` unswizzled).
///
/// Inside one aligned `2^high`-byte block every layer XORs the same constant into its field (`Sw<B,M,S>`, S > 0:
/// the upper field is the source, the same for the whole block; S < 0: the lower field is the source, and a move
/// by a multiple of `2^low` keeps it). So two addresses of one such block that differ by a multiple of `2^low`
/// are moved alike: `f(b + delta) = f(b) + delta`.
const fn fields(smem: &Smem) -> (u32, u32) {
    let k = smem.unit().log2_bytes();
    let (a, b) = match smem.swizzle() {
        SwizzleFn::Single(s) => (s, Swizzle::IDENTITY),
        SwizzleFn::Composed(c) => (c.first, c.second),
    };
    let (mut low, mut high) = (0u32, 64u32);
    let layers = [a, b];
    let mut l = 0;
    while l < 2 {
        let s = layers[l];
        if !s.is_identity() {
            let lo = s.base + s.bits + k;
            let hi = s.base + s.shift.unsigned_abs() + k;
            if lo > low {
                low = lo;
            }
            if hi < high {
                high = hi;
            }
        }
        l += 1;
    }
    (low, high)
}

/// True when every instruction of `pattern`'s walk over `tile` (but the last) translates its source with a `delta`
/// that shares no bit with `lanes_or` ([`Period::translates`]), decided from the walk's two strides without
/// visiting the instructions. Instruction `i` covers block `(R, C)`: `delta = R * row + C * col` bytes, `C` below
/// the blocks per block row. Two cases cover it:
/// - every lane offset lies below the lowest bit of both strides (row accesses, `row16`): each `delta` is a
///   multiple of that bit;
/// - both strides are powers of two, a block row's blocks fit below `row`, and the bits `C * col` can take miss
///   the lane offsets (`lanes_or < row` always: the sources lie in the first block row).
const fn all_translate(pattern: Pattern, tile: crate::tile::Tile, n: u32, lanes_or: u64) -> bool {
    let sources = pattern.translate_sources();
    let (instrs, row) = pattern.instruction_step(tile);
    if n <= sources || instrs < sources || row == 0 || lanes_or >= row {
        return false;
    }
    let per_row = instrs / sources;
    let col = if per_row > 1 && n > sources {
        pattern.translate_of(tile, sources).1
    } else {
        row
    };
    if col == 0 {
        return false;
    }
    let low = if row.trailing_zeros() < col.trailing_zeros() {
        row.trailing_zeros()
    } else {
        col.trailing_zeros()
    };
    if lanes_or < 1u64 << low {
        return true;
    }
    if !row.is_power_of_two() || !col.is_power_of_two() || col * per_row as u64 > row {
        return false;
    }
    let c_bits = (1u64 << (u32::BITS - (per_row - 1).leading_zeros())) - 1;
    lanes_or & (c_bits * col) == 0
}

/// Which instructions of a walk stand for all of them: an instruction that costs what an earlier one costs (by
/// the periodicity of `moves_by_a_period` and `fields`, or as an XOR translate, [`Period::translates`]) is
/// skipped, so the check costs the distinct warp accesses, not the tile's element count.
///
/// - A generic pattern walks block rows in memory order ([`Pattern::instruction_step`]). The **period** is the
///   first multiple of that step that moves by a period of the layout: instructions past it repeat the first
///   ones. Inside the period, the **fine step** is the first multiple that moves by a multiple of `2^low` and
///   whole units: an instruction whose block rows, with those one fine step earlier, lie in one aligned
///   `2^high`-byte block repeats the instruction one fine step earlier. The last instruction is always walked
///   (a `row16` walk may wrap there).
/// - A thread-value layout: each instruction digit is cut at the first value whose stride moves by a period
///   (values past it repeat earlier instructions), and the box of the cut digits is walked.
///
/// Instructions are visited in increasing order, so the first conflict found is the first of the whole walk.
#[derive(Clone, Copy, Debug)]
pub struct Period {
    /// Instructions in the whole walk.
    n: u32,
    /// Generic pattern: instructions `0..len` (and `n - 1`) stand for the walk.
    len: u32,
    /// Generic pattern: the fine step in instructions (0: none), block-row instructions and bytes, `high`.
    fine: u32,
    step: (u32, u64),
    high: u32,
    /// Thread-value layout: per instruction digit `(cut, size)`, fastest first; `digits == 0` for a pattern.
    cut: [(u32, u32); crate::pattern::MAX_DIGITS],
    digits: usize,
    /// Generic pattern on an unpadded layout, or a padded one whose swizzle keeps every byte in its line: the OR
    /// of every lane's unswizzled byte offset in the instructions that others translate
    /// ([`Pattern::translate_of`]); `None` otherwise.
    lanes_or: Option<u64>,
    /// Padded layouts: `(log2 line bytes, padded line pitch, align)`.
    padded: Option<(u32, u64, u64)>,
    /// Every lane's access is at least a word, so no two lanes of an instruction share a unit.
    whole_words: bool,
    /// The generic pattern walked (for [`Period::translates`]) and the layout.
    walk: Option<(Pattern, Smem)>,
    /// Every instruction but the last translates a source instruction ([`Period::translates`]): the walk is
    /// the sources and the last instruction, decided without visiting the others.
    all_translate: bool,
}

impl Period {
    /// The period of `access` on `smem`.
    pub const fn of(smem: &Smem, access: &WarpAccess) -> Period {
        let n = access.instructions(smem);
        let align = 1u64 << access.op(smem).unit_shift();
        let mut p = Period {
            n,
            len: n,
            fine: 0,
            step: (1, 0),
            high: 64,
            cut: [(1, 1); crate::pattern::MAX_DIGITS],
            digits: 0,
            lanes_or: None,
            padded: None,
            whole_words: access.op(smem).bytes_per_lane() >= 4,
            walk: None,
            all_translate: false,
        };
        if let Some(pattern) = access.pattern() {
            p.walk = Some((pattern, *smem));
            if smem.pad_bytes() == 0 || smem.swizzle_keeps_lines() {
                let tile = smem.tile();
                let eb = tile.elem.bytes() as u64;
                let mut m = 0u64;
                let mut r = 0;
                while r < n && r < pattern.translate_sources() {
                    let mut lane = 0;
                    while lane < WARP as u32 {
                        m |= pattern.lane_offset(tile, r, lane) as u64 * eb;
                        lane += 1;
                    }
                    r += 1;
                }
                p.lanes_or = Some(m);
                let line = smem.line_len() as u64 * eb;
                let pitch = line + smem.pad_bytes() as u64;
                if smem.pad_bytes() != 0 {
                    p.padded = Some((line.trailing_zeros(), pitch, align));
                }
                // Padded: every line move adds a whole number of units only when the pitch is one, and the
                // sources must lie in the first line (see `translates`).
                p.all_translate = (smem.pad_bytes() == 0
                    || (m < line && pitch.is_multiple_of(align)))
                    && all_translate(pattern, tile, n, m);
            }
            let (instrs, bytes) = pattern.instruction_step(smem.tile());
            p.step = (instrs, bytes);
            let k = first_period_step(smem, bytes, align);
            if instrs > 0 && (k as u128) * (instrs as u128) < n as u128 {
                p.len = k as u32 * instrs;
            }
            let (low, high) = fields(smem);
            let mut k = 1u32;
            while low < 64 && high < 64 && (k as u64) * (instrs as u64) < p.len as u64 {
                let delta = k as u64 * bytes;
                if delta >= 1u64 << high {
                    break;
                }
                if delta.is_multiple_of(1u64 << low)
                    && padding_moves_whole_units(smem, delta, align)
                {
                    p.fine = k * instrs;
                    p.high = high;
                    break;
                }
                k += 1;
            }
            return p;
        }
        let tile = smem.tile();
        let eb = tile.elem.bytes() as u64;
        let digits = access.instr_digits();
        let mut d = 0;
        while d < digits.len() {
            let digit = digits[d];
            let stride = match tile.order {
                crate::tile::Order::RowMajor => {
                    digit.row as u64 * tile.cols as u64 + digit.col as u64
                }
                crate::tile::Order::ColMajor => {
                    digit.col as u64 * tile.rows as u64 + digit.row as u64
                }
            } * eb;
            let mut v = 1u32;
            while v < digit.size && !moves_by_a_period(smem, v as u64 * stride, align) {
                v += 1;
            }
            p.cut[d] = (v, digit.size);
            d += 1;
        }
        p.digits = digits.len();
        p
    }

    /// For a generic pattern on an unpadded layout (or a padded one whose swizzle keeps lines, below): the
    /// instruction whose cost instruction `i` has because its addresses are that instruction's XORed with one
    /// constant (then moved by whole units), or `None`.
    ///
    /// Instruction `i`'s lanes touch the unswizzled byte offsets of an earlier instruction `r` moved by `delta`
    /// ([`Pattern::translate_of`]). When `delta` shares no bit with any of `r`'s lane offsets, adding it is
    /// XORing it. Every swizzle layer is linear over the bits of the address (`x ^ ((x & mask) >> S)`, the
    /// same for `S < 0` with `<<`), and so is their composition: the swizzled addresses of `i` are those of
    /// `r` XORed with the swizzled `delta`, one constant `c` for every lane. XORing every address with `c`
    /// XORs every unit (`addr >> shift`) with `c >> shift` and so every bank group with one constant: a
    /// permutation of the groups that keeps which lanes share a unit, which share a group, and which pair
    /// up (a paired load): the bank model's wavefronts and ideal are unchanged, and so are they when every
    /// address then moves by the same whole number of units (a rotation of the groups). On a power-of-two tile this
    /// makes every instruction cost what the first one (two for `mma.acc`) costs, whatever the swizzle's span.
    pub const fn translates(&self, i: u32) -> Option<u32> {
        let (Some(m), Some((pattern, smem))) = (self.lanes_or, self.walk) else {
            return None;
        };
        if i + 1 == self.n {
            return None; // row16's last instruction may wrap to the tile's start
        }
        let (r, delta) = pattern.translate_of(smem.tile(), i);
        if r >= i || delta & m != 0 {
            return None;
        }
        if let Some((log_line, pitch, align)) = self.padded {
            // The swizzle keeps lines: an address is `F(x) % line + (x / line) * pitch`, and `x / line` of
            // `x_r ^ delta` is `x_r / line + delta / line`. So `i`'s addresses are `r`'s XORed with
            // `F(delta) % line` (only when `r`'s lanes lie in the first line, or that XOR is 0) plus
            // `(delta / line) * pitch`, which must be whole units.
            // Sources spanning lines may still move by a nonzero XOR when no two lanes share a unit (accesses of
            // at least a word): the cost then depends only on each lane's group, the address bits below one
            // row of banks, and an XOR above them, on lines that are whole rows of banks, leaves those alone.
            let line_mask = (1u64 << log_line) - 1;
            let xor = smem.swizzled_bytes(delta as u32) as u64 & line_mask;
            let bank_row = (bank::BANKS * 4) as u64;
            let spans_lines_ok = xor == 0
                || (self.whole_words && xor.is_multiple_of(bank_row) && line_mask + 1 >= bank_row);
            if (m > line_mask && !spans_lines_ok)
                || !((delta >> log_line) * pitch).is_multiple_of(align)
            {
                return None;
            }
        }
        Some(r)
    }

    /// The instructions others translate: 2 for `mma.acc`, 1 otherwise (0 for a thread-value layout).
    const fn sources(&self) -> u32 {
        match self.walk {
            Some((pattern, _)) => pattern.translate_sources(),
            None => 0,
        }
    }

    /// For a generic pattern: instruction `i` (of the first period) repeats instruction `i - fine`.
    pub const fn repeats_earlier(&self, i: u32) -> bool {
        if self.fine == 0 || i < self.fine || i + 1 == self.n {
            return false;
        }
        let (instrs, bytes) = self.step;
        let first = ((i - self.fine) / instrs) as u64 * bytes;
        let last = ((i / instrs) as u64 + 1) * bytes - 1;
        first >> self.high == last >> self.high
    }

    /// The first instruction to walk (`None` for an empty walk).
    pub const fn first(&self) -> Option<u32> {
        if self.n == 0 {
            None
        } else {
            Some(0)
        }
    }

    /// The instruction after `i` to walk.
    pub const fn next(&self, i: u32) -> Option<u32> {
        if self.digits == 0 {
            let mut j = i + 1;
            if self.all_translate && j >= self.sources() {
                return if j < self.n { Some(self.n - 1) } else { None };
            }
            while j < self.len && (self.repeats_earlier(j) || self.translates(j).is_some()) {
                j += 1;
            }
            return if j < self.len {
                Some(j)
            } else if i + 1 < self.n {
                Some(self.n - 1)
            } else {
                None
            };
        }
        // Mixed-radix increment over the cut digits (fastest first).
        let (mut x, mut stride, mut d) = (i, 1u32, 0);
        let mut next = i;
        while d < self.digits {
            let (cut, size) = self.cut[d];
            let v = x % size;
            if v + 1 < cut {
                return Some(next + stride);
            }
            next -= v * stride; // this digit back to 0, carry into the next
            x /= size;
            stride *= size;
            d += 1;
        }
        None
    }

    /// The instruction of the first period whose cost instruction `i` has (a generic pattern's).
    pub const fn stand_in(&self, i: u32) -> u32 {
        if i + 1 == self.n {
            return i;
        }
        let mut j = i % self.len;
        while self.repeats_earlier(j) {
            j -= self.fine;
        }
        match self.translates(j) {
            Some(r) => r,
            None => j,
        }
    }

    /// Instructions walked.
    pub const fn walked(&self) -> u32 {
        let mut count = 0;
        let mut i = self.first();
        while let Some(k) = i {
            count += 1;
            i = self.next(k);
        }
        count
    }
}

/// Total wavefronts of a generic pattern's walk over `smem` (0 when it cannot walk it), costing only the
/// instructions that stand for the others ([`Period`]): the same sum as adding up every instruction.
pub fn total_wavefronts(smem: &Smem, pattern: Pattern) -> u64 {
    wavefronts_below(smem, pattern, u64::MAX).unwrap_or(u64::MAX)
}

/// [`total_wavefronts`], or `None` as soon as the sum reaches `limit`.
pub fn wavefronts_below(smem: &Smem, pattern: Pattern, limit: u64) -> Option<u64> {
    wavefronts_below_counting(smem, pattern, limit, &mut 0)
}

/// [`wavefronts_below`], adding the instructions it walks to `work` (costed, or standing in for one costed).
pub fn wavefronts_below_counting(
    smem: &Smem,
    pattern: Pattern,
    limit: u64,
    work: &mut u64,
) -> Option<u64> {
    let access = pattern.warp();
    let op = access.op(smem);
    let period = Period::of(smem, &access);
    // The cost of each instruction of the first period, once walked (0: not yet).
    let mut costs = vec![0u32; period.len as usize];
    let mut sum = 0u64;
    for i in 0..period.n {
        let j = period.stand_in(i);
        *work += 1;
        let cost = match costs.get(j as usize) {
            Some(&c) if c > 0 => c,
            _ => {
                let c = bank::wavefronts(op, &access.addrs(smem, j));
                if let Some(slot) = costs.get_mut(j as usize) {
                    *slot = c;
                }
                c
            }
        };
        sum += cost as u64;
        if sum >= limit {
            return None;
        }
    }
    Some(sum)
}

/// True when the pattern can walk the tile and every instruction is conflict-free.
pub const fn is_conflict_free(smem: &Smem, pattern: Pattern) -> bool {
    is_conflict_free_warp(smem, &pattern.warp())
}

/// [`is_conflict_free`] for any [`WarpAccess`].
pub const fn is_conflict_free_warp(smem: &Smem, access: &WarpAccess) -> bool {
    smem.bytes() <= MAX_SMEM_BYTES as u64
        && smem.validate().is_ok()
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

    /// The swizzles the small-layout sweeps run: `Sw<B,M,S>` for each of ten triples and `extra` (spans from one
    /// line to close to the tile, where the fine step does the work), then one of two layers.
    pub(crate) fn small_swizzles(extra: &[(u32, u32, i32)]) -> Vec<SwizzleFn> {
        let singles = [
            (0, 0, 0),
            (1, 0, 1),
            (2, 3, 3),
            (3, 3, 3),
            (3, 4, -3),
            (2, 4, 5),
            (3, 0, 5),
        ];
        let near_the_tile = [(1, 0, 11), (2, 1, -9), (1, 4, 7)];
        let two = crate::Composed::new(Swizzle::new(1, 6, -2), Swizzle::new(3, 3, 5));
        (singles.iter().chain(extra).chain(&near_the_tile))
            .map(|&(b, m, s)| SwizzleFn::Single(Swizzle::new(b, m, s)))
            .chain([SwizzleFn::Composed(two)])
            .collect()
    }

    /// Calls `f(tile, smem, pattern)` for every small layout the sweeps run: each element type, each of `shapes` in
    /// both orders, each of `swizzles` in bytes and in elements, each of `pads` (every valid combination), and
    /// every pattern as it is and `viewed_as(64)`.
    pub(crate) fn for_each_small_layout(
        shapes: &[(u32, u32)],
        swizzles: &[SwizzleFn],
        pads: &[u32],
        mut f: impl FnMut(crate::Tile, Smem, Pattern),
    ) {
        use crate::units::Unit;
        for elem in [Elem::U8, Elem::F16, Elem::F32, Elem::F64] {
            for &(rows, cols) in shapes {
                for order in [Order::RowMajor, Order::ColMajor] {
                    let Ok(tile) = crate::Tile::new(rows, cols, elem, order) else {
                        continue;
                    };
                    for &sw in swizzles {
                        for &pad in pads {
                            for unit in [Unit::Bytes, Unit::Elems(elem)] {
                                let smem = Smem::plain(tile)
                                    .with_swizzle_fn_in(sw, unit)
                                    .with_padding(pad);
                                if smem.validate().is_err() {
                                    continue;
                                }
                                for p in Pattern::ALL {
                                    for view in [0, 64] {
                                        f(tile, smem, p.viewed_as(view));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn long_messages_are_cut_not_broken() {
        let m = Message::EMPTY.str(&"ab".repeat(400));
        assert_eq!(m.as_str().unwrap().len(), MESSAGE_BYTES);
    }

    /// Every small layout, every pattern: each instruction costs what its stand-in of the first period costs, the
    /// first conflict is the one a walk over every instruction finds, and the total is the sum over all.
    #[test]
    fn one_period_stands_for_the_whole_walk() {
        let mut swizzles = small_swizzles(&[]);
        swizzles.push(SwizzleFn::Composed(crate::Composed::new(
            Swizzle::new(2, 4, 3),
            Swizzle::new(1, 0, 10),
        )));
        let (mut cases, mut saved, mut translated) = (0u64, 0u64, 0u64);
        // (32, 66) and (16, 136): lane offsets below the block row's stride that a block's offset still carries
        // into (not every instruction translates the first).
        let shapes = [(32, 32), (64, 64), (48, 96), (96, 40), (32, 66), (16, 136)];
        for_each_small_layout(&shapes, &swizzles, &[0, 1, 4, 12], |tile, smem, p| {
            let a = p.warp();
            if a.check_on(&smem).is_err() {
                return;
            }
            let op = a.op(&smem);
            let n = a.instructions(&smem);
            let cost = |i| bank::wavefronts(op, &a.addrs(&smem, i));
            let period = Period::of(&smem, &a);
            // The closed-form period step is the first step that moves by a
            // period.
            let (_, bytes) = p.instruction_step(tile);
            let align = 1u64 << op.unit_shift();
            let bound = 4 * n as u64 + 64;
            let tried = (1..=bound).find(|&k| moves_by_a_period(&smem, k * bytes, align));
            let step = first_period_step(&smem, bytes, align);
            assert_eq!(
                tried.unwrap_or(step.max(bound + 1)),
                step,
                "{p} on {smem}: period step"
            );
            assert!(tried.is_some() || step > bound, "{p} on {smem}");
            if period.all_translate {
                for i in period.sources()..n.saturating_sub(1) {
                    assert!(
                        period.translates(i).is_some(),
                        "{p} on {smem}: {i} does not translate"
                    );
                }
                translated += 1;
            }
            for i in 0..n {
                let stand_in = period.stand_in(i);
                assert_eq!(cost(i), cost(stand_in), "{p} on {smem}: {i} vs {stand_in}");
            }
            let brute = (0..n).find(|&i| cost(i) > bank::ideal(op, &a.addrs(&smem, i)));
            assert_eq!(
                first_conflict_warp(&smem, &a).map(|(i, _)| i),
                brute,
                "{p} on {smem}"
            );
            let total: u64 = (0..n).map(|i| cost(i) as u64).sum();
            assert_eq!(total_wavefronts(&smem, p), total, "{p} on {smem}");
            cases += 1;
            saved += (n - period.walked()) as u64;
        });
        assert!(
            cases > 1000 && saved > 0 && translated > 100,
            "{cases} cases, {saved} instructions saved, {translated} walks of translates"
        );
    }

    /// A thread-value layout's cut digits find the same first conflict as walking every instruction.
    #[test]
    fn thread_value_layouts_walk_one_period() {
        use crate::bank::Op;
        let col = WarpAccess::new("col.ld", Op::LDS32)
            .lane(32, 1, 0)
            .instr(32, 0, 1)
            .instr(7, 32, 0);
        let row = WarpAccess::new("row.st", Op::STS32)
            .lane(32, 0, 1)
            .instr(224, 1, 0);
        for smem in [
            Smem::row_major(224, 32, Elem::F32),
            Smem::row_major(224, 32, Elem::F32).with_padding(4),
            Smem::row_major(224, 32, Elem::F32).with_swizzle(Swizzle::new(5, 0, 5)),
            Smem::row_major(224, 32, Elem::F32).with_swizzle(Swizzle::new(3, 2, 3)),
        ] {
            for a in [col, row] {
                let op = a.op(&smem);
                let n = a.instructions(&smem);
                let brute = (0..n).find(|&i| {
                    let addrs = a.addrs(&smem, i);
                    bank::wavefronts(op, &addrs) > bank::ideal(op, &addrs)
                });
                assert_eq!(
                    first_conflict_warp(&smem, &a).map(|(i, _)| i),
                    brute,
                    "{a} on {smem}"
                );
                assert!(Period::of(&smem, &a).walked() <= 64, "{a} on {smem}");
            }
        }
    }
}
