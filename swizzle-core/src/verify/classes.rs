//! Cost classes of a generic pattern's walk: a key per instruction, cheap to compute from the instruction's
//! place alone, such that two instructions with the same key cost the same wavefronts (and have the same ideal).
//! The checker walks the instructions in order and costs only the first one of each key, so it costs the distinct
//! warp accesses, not the tile's element count, whatever the row length, padding or swizzle span.
//!
//! **Why a key can stand for the cost.** Instruction `i` of a pattern touches the unswizzled byte offsets
//! `x_l + D` (`x_l`: lane `l` of a source instruction `r`, `D`: the instruction's block offset,
//! [`Pattern::translate_of`]). The layout maps an offset `x` to `s = S(x)` (the swizzle, XOR-linear in `x`'s bits)
//! then to `A = s + (s / L) * pad` (`L` bytes per line). The bank model ([`bank::wavefronts`], [`bank::ideal`])
//! sees only which lanes share a unit (a word, or the 8- and 16-byte unit of wider accesses), which units share a
//! bank group, and which lanes repeat an address. All three are kept when every address moves by the same whole
//! number of units `U`, and when every address is XORed with one constant (a permutation of units and groups). Each
//! key below names what is left of the addresses once such a common move is taken out:
//!
//! - **XOR blocks** (`D` shares no bit with any source lane offset). Then `x_l + D = x_l ^ D` and
//!   `S(x_l + D) = S(x_l) ^ S(D)`: one XOR constant `c = S(D)`. Unpadded, that is the source's cost. Padded, when
//!   every source lane lies in `[0, 2^g)`, `S` keeps it there and `D` is a multiple of `2^g`: the lanes lie in one
//!   aligned block `c_hi + (S(x_l) ^ c_lo)`; padding moves it as a whole, except that, when it runs past its line's
//!   end, which lanes get which later line's padding depends on where the block starts in its line
//!   (`off = c_hi % L`): key `(c_lo, off or "inside", (c_hi + c_hi / L * pad) % U)`. Padded on power-of-two lines: the line number and the in-line
//!   offset XOR separately; when `c`'s line bits miss every source lane's line bits, the line part adds, and of
//!   the in-line part only the bits the lanes use (`cz`) permute: key `(cz, (line(c) * (L + pad) + rest) % U)`.
//! - **Periods** (always applies). `S` moves `x` by `δ = S(x) - x`, which depends only on `x % P` (`P`: the
//!   swizzle's period in bytes) and is at most the swizzled bits' mask (`Δ`). So with `e = D % P`, every lane's
//!   `w_l = x_l + δ_l` is fixed by `(r, e)` and `s_l = w_l + D`. Unpadded: key `(e, (D - e) % U)`. Padded, with
//!   `D = q * L + τ`: `A_l = w_l + (w_l div L) * pad + [w_l mod L + τ >= L] * pad + (D + q * pad)`; the bracket
//!   (whether lane `l`'s line ends before `τ`) can change only when `τ` lies within `Δ` of `L - (x_l mod L)`.
//!   Outside those windows the key is the gap between windows that `τ` lies in; inside, `τ` itself:
//!   key `(e, gap or τ, (D + q * pad) % U)`.
//!
//! The keys of different kinds never compare equal (a tag), so an instruction may take whichever kind applies to
//! it; one that takes none (`row16`'s last instruction, which may wrap to the tile's start) is always costed.

use crate::bank::{self, WARP};
use crate::compose::SwizzleFn;
use crate::pattern::{Kind, Pattern, Smem};

/// Slots of the seen-keys table (a power of two); past three quarters full, new keys are costed without being
/// remembered (still exact, only slower).
const SLOTS: usize = 2048;

/// Most merged windows per source (one per lane at most).
const MAX_WINDOWS: usize = WARP;

/// Key kinds, in the top two bits.
const TAG_BLOCK: u128 = 1 << 126;
const TAG_LINES: u128 = 2 << 126;
const TAG_PERIOD: u128 = 3 << 126;

/// Most runs of swizzle-relevant bits (two layers, two fields each).
const MAX_RUNS: usize = 4;

/// Fewest instructions in a run of equal keys worth looking for.
const LONG_RUN: u64 = 4;

/// The key of an instruction that is always costed.
const ALWAYS: u128 = 0;

/// Everything the keys need about one walk, computed once.
#[derive(Clone, Copy)]
pub(crate) struct Classes {
    pattern: Pattern,
    smem: Smem,
    n: u32,
    /// The last instruction may wrap to the tile's start (`row16`): it is always costed.
    wraps: bool,
    /// Instruction `i`'s block offset: `(i / per_row) * row_bytes + (i % per_row) / sources * block_bytes`.
    sources: u64,
    per_row: u64,
    row_bytes: u64,
    block_bytes: u64,
    /// The swizzle on bytes, layer by layer: `(mask, shift)`, `x ^ ((x & mask) >> shift)` (`<<` for a negative
    /// shift).
    layers: [(u64, i32); 2],
    /// Unswizzled byte offsets of each source instruction's lanes.
    lanes: [[u32; WARP]; 2],
    /// OR of each source's lane offsets.
    lanes_or: [u64; 2],
    /// Bytes per line, padding bytes per line, `U` (bytes per unit of the bank model), `P` (period bytes).
    line: u64,
    pad: u64,
    unit: u64,
    period: u64,
    /// XOR blocks: `g` (0: not usable), every source lane swizzled stays below `2^g`.
    block_bits: u32,
    /// Power-of-two lines: `log2 L` (0: not a power of two); per source, OR of the swizzled lanes' line numbers
    /// and of their in-line offsets.
    log_line: u32,
    line_or: [u64; 2],
    in_line_or: [u64; 2],
    /// Every address of an instruction has the same residue modulo `U` (the source lanes do, padding is whole
    /// units and the swizzle moves whole units): then a common move, whole units or not, keeps the cost.
    same_residue: bool,
    /// Periods: the runs `(a, b - a)` of bits a swizzle layer reads or writes (in bytes), and per source and run,
    /// the sorted distinct amounts `2^a - x_l % 2^a` (a lane's carry into bit `a` for `e % 2^a` at least that).
    runs: [(u32, u32); MAX_RUNS],
    /// Every bit a swizzle layer reads or writes (in bytes): the swizzle moves an offset by an amount that
    /// depends only on these bits, and that lies within them.
    relevant: u64,
    /// Runs of padded XOR blocks ([`Classes::equal_keys_after`]) can be long enough to pay for looking for them
    /// (at least [`LONG_RUN`] blocks between the relevant bits' boundaries and within a line).
    block_runs: bool,
    n_runs: usize,
    carries: [[[u32; WARP]; MAX_RUNS]; 2],
    n_carries: [[usize; MAX_RUNS]; 2],
    /// Periods, padded: per source, the merged windows of `τ` (inclusive, in `0..L`), sorted.
    windows: [[(u32, u32); MAX_WINDOWS]; 2],
    n_windows: [usize; 2],
}

impl Classes {
    /// The classes of `pattern`'s walk over `smem` (which the pattern can walk).
    pub(crate) const fn of(smem: &Smem, pattern: Pattern) -> Classes {
        let tile = smem.tile();
        let eb = tile.elem.bytes() as u64;
        let op = pattern.op(tile.elem);
        let n = pattern.instructions(tile);
        let line = smem.line_len() as u64 * eb;
        let k = smem.unit().log2_bytes();
        let (per_row, row_bytes) = pattern.instruction_step(tile);
        let sources = pattern.translate_sources();
        let block_bytes = if n > sources {
            pattern.translate_of(tile, sources).1
        } else {
            0
        };
        let (a, b) = match smem.swizzle() {
            SwizzleFn::Single(s) => (s, crate::Swizzle::IDENTITY),
            SwizzleFn::Composed(x) => (x.first, x.second),
        };
        let mut c = Classes {
            pattern,
            smem: *smem,
            n,
            wraps: matches!(pattern.kind, Kind::Row16),
            sources: sources as u64,
            per_row: per_row as u64,
            row_bytes,
            block_bytes,
            layers: [
                ((a.yyy_msk() as u64) << k, a.shift),
                ((b.yyy_msk() as u64) << k, b.shift),
            ],
            lanes: [[0; WARP]; 2],
            lanes_or: [0; 2],
            line,
            pad: smem.pad_bytes() as u64,
            unit: 1 << op.unit_shift(),
            period: {
                let p = smem.swizzle().period();
                if p > (1 << 32) {
                    1 << 32
                } else {
                    p << k
                }
            },
            block_bits: 0,
            log_line: if line.is_power_of_two() {
                line.trailing_zeros()
            } else {
                0
            },
            line_or: [0; 2],
            in_line_or: [0; 2],
            windows: [[(0, 0); MAX_WINDOWS]; 2],
            n_windows: [0; 2],
            same_residue: false,
            runs: [(0, 0); MAX_RUNS],
            relevant: 0,
            block_runs: false,
            n_runs: 0,
            carries: [[[0; WARP]; MAX_RUNS]; 2],
            n_carries: [[0; MAX_RUNS]; 2],
        };
        // The runs of bits the swizzle reads or writes.
        let mut relevant = ((a.yyy_msk() as u64)
            | (a.zzz_msk() as u64)
            | (b.yyy_msk() as u64)
            | (b.zzz_msk() as u64))
            << k;
        c.relevant = relevant;
        while relevant != 0 && c.n_runs < MAX_RUNS {
            let lo = relevant.trailing_zeros();
            let w = (!(relevant >> lo)).trailing_zeros();
            c.runs[c.n_runs] = (lo, w);
            c.n_runs += 1;
            relevant &= !(((1u64 << w) - 1) << lo);
        }
        let mut width = 0;
        let mut run = 0;
        while run < c.n_runs {
            width += c.runs[run].1 + 6;
            run += 1;
        }
        if relevant != 0 || width > 64 {
            // Never for legal layouts (two layers, periods within a tile): key on `e` itself.
            c.n_runs = 0;
        }
        // Δ: how far the swizzle can move an offset (the sum of its layers' swizzled-bit masks, in bytes).
        let reach = ((a.zzz_msk() as u64) << k) + ((b.zzz_msk() as u64) << k);
        let access = op.bytes_per_lane() as u64;
        let mut top = 0u64; // one past the highest byte any source lane touches
        let mut r = 0;
        while r < sources && r < 2 {
            let mut l = 0;
            while l < WARP {
                let x = pattern.lane_offset(tile, r, l as u32) as u64 * eb;
                c.lanes[r as usize][l] = x as u32;
                c.lanes_or[r as usize] |= x;
                if x + access > top {
                    top = x + access;
                }
                l += 1;
            }
            r += 1;
        }
        // XOR blocks: the smallest 2^g holding every source lane; usable when the swizzle keeps them below it.
        let g = 64 - (top - 1).leading_zeros();
        let mut closed = g < 32;
        // Power-of-two lines: the swizzled lanes' line numbers and in-line offsets.
        let mut r = 0;
        while r < sources && r < 2 {
            let mut l = 0;
            while l < WARP {
                let s = c.swizzled(c.lanes[r as usize][l] as u64);
                if g >= 32 || s >= 1 << g {
                    closed = false;
                }
                if c.log_line > 0 {
                    c.line_or[r as usize] |= s >> c.log_line;
                    c.in_line_or[r as usize] |= s & (line - 1);
                }
                l += 1;
            }
            c.windows_of(r as usize, reach);
            c.carries_of(r as usize);
            r += 1;
        }
        if closed {
            c.block_bits = g;
            let b = c.block_bytes;
            let low = (1u64 << g) - 1;
            let high = c.relevant & !low;
            let span = if high == 0 {
                u64::MAX
            } else {
                1 << high.trailing_zeros()
            };
            c.block_runs = sources == 1
                && c.pad > 0
                && b > 0
                && b & low == 0
                && span / b > LONG_RUN
                && line > (1 << g)
                && (line - (1 << g)) / b >= LONG_RUN;
        }
        let moved = ((a.zzz_msk() as u64) | (b.zzz_msk() as u64)) << k;
        let mut same = moved & (c.unit - 1) == 0
            && c.pad.is_multiple_of(c.unit)
            && line.is_multiple_of(c.unit);
        let mut r = 0;
        while r < sources && r < 2 {
            let mut l = 0;
            while l < WARP {
                if c.lanes[r as usize][l] as u64 % c.unit != c.lanes[r as usize][0] as u64 % c.unit
                {
                    same = false;
                }
                l += 1;
            }
            r += 1;
        }
        c.same_residue = same;
        c
    }

    /// Source `r`'s sorted distinct carry amounts into each run's first bit (see [`Classes::fields_class`]).
    const fn carries_of(&mut self, r: usize) {
        let mut k = 0;
        while k < self.n_runs {
            let a = self.runs[k].0;
            let modulus = 1u64 << a;
            let mut t = [0u32; WARP];
            let mut count = 0;
            let mut l = 0;
            while l < WARP {
                let m = self.lanes[r][l] as u64 % modulus;
                if m != 0 {
                    // Insert `modulus - m`, sorted, once.
                    let v = (modulus - m) as u32;
                    let mut j = 0;
                    while j < count && t[j] < v {
                        j += 1;
                    }
                    if j == count || t[j] != v {
                        let mut x = count;
                        while x > j {
                            t[x] = t[x - 1];
                            x -= 1;
                        }
                        t[j] = v;
                        count += 1;
                    }
                }
                l += 1;
            }
            self.carries[r][k] = t;
            self.n_carries[r][k] = count;
            k += 1;
        }
    }

    /// The windows of `τ` near which source `r`'s lanes change line (see the module doc), merged and sorted.
    const fn windows_of(&mut self, r: usize, reach: u64) {
        if self.pad == 0 || self.line == 0 {
            return;
        }
        let line = self.line as i64;
        let reach = reach as i64;
        if 2 * reach + 1 >= line {
            // Every τ is in a window.
            self.windows[r][0] = (0, (line - 1) as u32);
            self.n_windows[r] = 1;
            return;
        }
        // Each lane's window [L - m - reach, L - m + reach] mod L, split where it wraps.
        let mut raw = [(0u32, 0u32); 2 * WARP];
        let mut count = 0;
        let mut l = 0;
        while l < WARP {
            let m = self.lanes[r][l] as i64 % line;
            let lo = line - m - reach;
            let hi = line - m + reach;
            let (lo, hi) = (lo.rem_euclid(line), hi.rem_euclid(line));
            if lo <= hi {
                raw[count] = (lo as u32, hi as u32);
                count += 1;
            } else {
                raw[count] = (0, hi as u32);
                raw[count + 1] = (lo as u32, (line - 1) as u32);
                count += 2;
            }
            l += 1;
        }
        // Insertion sort by start, then merge overlapping or touching windows.
        let mut i = 1;
        while i < count {
            let mut j = i;
            while j > 0 && raw[j - 1].0 > raw[j].0 {
                let t = raw[j - 1];
                raw[j - 1] = raw[j];
                raw[j] = t;
                j -= 1;
            }
            i += 1;
        }
        let mut merged = 0;
        let mut i = 0;
        while i < count {
            let (lo, hi) = raw[i];
            if merged > 0 && lo <= self.windows[r][merged - 1].1 + 1 {
                if hi > self.windows[r][merged - 1].1 {
                    self.windows[r][merged - 1].1 = hi;
                }
            } else if merged < MAX_WINDOWS {
                self.windows[r][merged] = (lo, hi);
                merged += 1;
            } else {
                // More windows than room: make the last one cover the rest (coarser, still exact).
                if hi > self.windows[r][merged - 1].1 {
                    self.windows[r][merged - 1].1 = hi;
                }
            }
            i += 1;
        }
        self.n_windows[r] = merged;
    }

    /// The swizzle alone on unswizzled byte offset `x` (what `Smem::swizzled_bytes` computes, with the masks
    /// taken out of the loop).
    const fn swizzled(&self, x: u64) -> u64 {
        let (m, s) = self.layers[0];
        let x = if s >= 0 {
            x ^ ((x & m) >> s)
        } else {
            x ^ ((x & m) << -s)
        };
        let (m, s) = self.layers[1];
        if s >= 0 {
            x ^ ((x & m) >> s)
        } else {
            x ^ ((x & m) << -s)
        }
    }

    /// `(r, D)`: instruction `i` touches source `r`'s offsets moved by `D` bytes ([`Pattern::translate_of`]).
    /// ([`Classes::first_conflict`] keeps the place by additions.)
    #[cfg(test)]
    const fn place(&self, i: u32) -> (usize, u64) {
        let i = i as u64;
        let d = (i / self.per_row) * self.row_bytes
            + (i % self.per_row) / self.sources * self.block_bytes;
        ((i % self.sources) as usize & 1, d)
    }

    /// The key of instruction `i`: equal keys (other than 0) mean equal wavefronts and ideal.
    #[cfg(test)]
    pub(crate) const fn key(&self, i: u32) -> u128 {
        let (r, d) = self.place(i);
        self.key_at(i, r, d)
    }

    /// [`Classes::key`] of instruction `i`, at `(r, d) = place(i)`.
    const fn key_at(&self, i: u32, r: usize, d: u64) -> u128 {
        if i + 1 == self.n && self.wraps {
            return ALWAYS; // may wrap to the tile's start
        }
        let tag_r = (r as u128) << 125;
        let (line, pad) = (self.line, self.pad);
        // Every address of the instruction in the same place within its unit: the common move does not matter.
        let unit = if self.same_residue { 1 } else { self.unit };
        if d & self.lanes_or[r] == 0 {
            let c = self.swizzled(d);
            if pad == 0 {
                return TAG_BLOCK | tag_r; // one XOR constant: the source's cost
            }
            let g = self.block_bits;
            if g > 0 && d & ((1 << g) - 1) == 0 {
                let lo = c & ((1 << g) - 1);
                let hi = c - lo;
                // The block starts `off` bytes into a line; when it runs past the line's end, which lanes get
                // which later line's padding depends on `off` (and `c_lo`) alone.
                let off = hi % line;
                let past = if off + (1 << g) <= line { 0 } else { off + 1 };
                return TAG_BLOCK
                    | tag_r
                    | ((lo as u128) << 24)
                    | ((past as u128) << 4)
                    | ((hi + hi / line * pad) % unit) as u128;
            }
            let log = self.log_line;
            if log > 0 && (c >> log) & self.line_or[r] == 0 {
                let inside = c & (line - 1);
                let cz = inside & self.in_line_or[r];
                let moved = (c >> log) * (line + pad) + (inside & !self.in_line_or[r]);
                return TAG_LINES | tag_r | ((cz as u128) << 4) | (moved % unit) as u128;
            }
        }
        let e = d % self.period;
        let fields = (self.fields_class(r, e) as u128) << 24;
        if pad == 0 {
            return TAG_PERIOD | tag_r | fields | ((d - e) % unit) as u128;
        }
        let (q, tau) = (d / line, d % line);
        let class = self.window_class(r, tau as u32);
        TAG_PERIOD | tag_r | fields | ((class as u128) << 4) | ((d + q * pad) % unit) as u128
    }

    /// What fixes how the swizzle moves source `r`'s lanes moved by `e` (`0 <= e < P`): for each run `[a, b)` of
    /// bits a swizzle layer reads or writes, `e`'s bits there and how many of the lanes' carries into bit `a`
    /// `e % 2^a` sets off (the lanes' bits in the run are `x_l`'s, plus `e`'s, plus that carry). The swizzle moves
    /// an offset by an amount that depends only on its bits in those runs.
    const fn fields_class(&self, r: usize, e: u64) -> u64 {
        if self.n_runs == 0 {
            return e;
        }
        let mut key = 0u64;
        let mut k = 0;
        while k < self.n_runs {
            let (a, w) = self.runs[k];
            let low = e & ((1u64 << a) - 1);
            let mut carries = 0;
            while carries < self.n_carries[r][k] && self.carries[r][k][carries] as u64 <= low {
                carries += 1;
            }
            key = (key << (w + 6)) | (((e >> a) & ((1 << w) - 1)) << 6) | carries as u64;
            k += 1;
        }
        key
    }

    /// The gap between windows `τ` lies in, or `τ` itself (flagged) inside a window.
    const fn window_class(&self, r: usize, tau: u32) -> u32 {
        let mut w = 0;
        while w < self.n_windows[r] {
            let (lo, hi) = self.windows[r][w];
            if tau < lo {
                return w as u32;
            }
            if tau <= hi {
                return (1 << 19) | tau;
            }
            w += 1;
        }
        self.n_windows[r] as u32
    }

    /// How many instructions right after instruction `i` (`j`-th of its block row, at offset `d`) provably have
    /// its key, without computing theirs: a run of padded XOR blocks along a line.
    ///
    /// With one source, the walk moves by `B` (`block_bytes`) from one instruction to the next within a block row
    /// (and across rows when rows follow each other). Let `d` be a padded XOR block (the module doc's first kind:
    /// a multiple of `2^g`, whose swizzle `c = S(d)` starts `off = hi % L` bytes into its line, with the block
    /// inside the line: `off + 2^g <= L`). An offset `d' = d + δ` that keeps every bit below `2^g` and every
    /// bit the swizzle reads or writes (`relevant`) has `S(d') = S(d) + δ` (the swizzle's move depends only on
    /// those bits and stays within them), so the same `c_lo`, and `hi' = hi + δ`. When the block stays inside the
    /// same line (`off + δ + 2^g <= L`) and `δ` is whole units, the key `(c_lo, inside, (hi + q * pad) % U)` is
    /// unchanged. The relevant bits at or above `2^g` stay put until `d` crosses a multiple of `2^t` (`t`: the
    /// lowest such bit); the run ends there, at the line's end, at the row's end, or before the walk's last
    /// instruction (which may wrap).
    const fn equal_keys_after(&self, i: u32, j: u64, d: u64) -> u64 {
        let (g, b, line) = (self.block_bits, self.block_bytes, self.line);
        let unit = if self.same_residue { 1 } else { self.unit };
        if self.sources != 1 || self.pad == 0 || g == 0 || b == 0 || i + 2 >= self.n {
            return 0;
        }
        let low = (1u64 << g) - 1;
        if b & low != 0 || !b.is_multiple_of(unit) || d & low != 0 || d & self.lanes_or[0] != 0 {
            return 0;
        }
        let c = self.swizzled(d);
        let off = (c - (c & low)) % line;
        if off + (1 << g) > line {
            return 0;
        }
        // The rest of the line, of the walk (never its last instruction), and of the row unless rows follow
        // each other.
        let mut steps = (line - (1 << g) - off) / b;
        let left = (self.n - 2 - i) as u64;
        if left < steps {
            steps = left;
        }
        if self.per_row * b != self.row_bytes && self.per_row - 1 - j < steps {
            steps = self.per_row - 1 - j;
        }
        let high = self.relevant & !low;
        if high != 0 {
            let t = high.trailing_zeros();
            let boundary = ((d >> t) + 1) << t;
            let within = (boundary - d - 1) / b;
            if within < steps {
                steps = within;
            }
        }
        steps
    }

    /// The 32 byte addresses of instruction `i`.
    #[cfg(test)]
    pub(crate) const fn addrs(&self, i: u32) -> [u32; WARP] {
        let (r, d) = self.place(i);
        self.addrs_at(i, r, d)
    }

    /// [`Classes::addrs`] of instruction `i`, at `(r, d) = place(i)`.
    const fn addrs_at(&self, i: u32, r: usize, d: u64) -> [u32; WARP] {
        if i + 1 == self.n && self.wraps {
            return self.pattern.addrs(&self.smem, i);
        }
        let src = &self.lanes[r];
        let mut a = [0u32; WARP];
        // `swizzled` and the padding written out per lane, with the second layer only when there is one: this
        // loop is most of the checker's cost at compile time.
        let ((m0, s0), (m1, s1)) = (self.layers[0], self.layers[1]);
        let (line, pad) = (self.line, self.pad);
        let mut l = 0;
        while l < WARP {
            let x = src[l] as u64 + d;
            let mut s = if s0 >= 0 {
                x ^ ((x & m0) >> s0)
            } else {
                x ^ ((x & m0) << -s0)
            };
            if m1 != 0 {
                s = if s1 >= 0 {
                    s ^ ((s & m1) >> s1)
                } else {
                    s ^ ((s & m1) << -s1)
                };
            }
            a[l] = if pad == 0 { s } else { s + s / line * pad } as u32;
            l += 1;
        }
        a
    }

    /// The first instruction costing more than its ideal, costing one instruction per key. Instructions from
    /// `repeat` on (but the last) repeat instruction `i % repeat`, a whole period of the layout earlier
    /// ([`super::Period`]): they are not visited.
    pub(crate) const fn first_conflict(&self, repeat: u32) -> Option<(u32, bank::Report)> {
        let op = self.pattern.op(self.smem.elem());
        let mut seen = [0u128; SLOTS];
        let mut filled = 0;
        // The instruction's place, kept by additions: `j` its index in its block row, `row` the row's offset.
        let (mut i, mut j, mut row) = (0u32, 0u64, 0u64);
        let mut last = ALWAYS;
        while i < self.n {
            let r = (j % self.sources) as usize & 1;
            let d = row + j / self.sources * self.block_bytes;
            let key = self.key_at(i, r, d);
            let fresh = if key == ALWAYS {
                true
            } else if key == last {
                false // runs of equal keys are common: no lookup
            } else {
                let k = (key ^ (key >> 64)) as u64;
                let mut h =
                    (k ^ (k >> 11) ^ (k >> 24) ^ (k >> 37) ^ (k >> 50)) as usize & (SLOTS - 1);
                loop {
                    if seen[h] == key {
                        break false;
                    }
                    if seen[h] == 0 {
                        if filled < SLOTS * 3 / 4 {
                            seen[h] = key;
                            filled += 1;
                        }
                        break true;
                    }
                    h = (h + 1) & (SLOTS - 1);
                }
            };
            last = key;
            if fresh {
                let addrs = self.addrs_at(i, r, d);
                if !costs_its_ideal(op, &addrs)
                    && bank::wavefronts(op, &addrs) > bank::ideal(op, &addrs)
                {
                    return Some((i, bank::report(op, &addrs)));
                }
            }
            let same = if self.block_runs && key & TAG_PERIOD == TAG_BLOCK {
                self.equal_keys_after(i, j, d)
            } else {
                0
            };
            if same > 0 {
                // A run of instructions with this key: go to the one after it.
                i += same as u32 + 1;
                j = i as u64 % self.per_row;
                row = i as u64 / self.per_row * self.row_bytes;
            } else {
                i += 1;
                j += 1;
                if j == self.per_row {
                    j = 0;
                    row += self.row_bytes;
                }
            }
            if i >= repeat && i + 1 < self.n {
                i = self.n - 1;
                j = i as u64 % self.per_row;
                row = i as u64 / self.per_row * self.row_bytes;
            }
        }
        None
    }

    /// Instructions [`Classes::first_conflict`] costs on a conflict-free walk.
    #[cfg(test)]
    pub(crate) fn costed(&self) -> u32 {
        let mut keys = std::collections::HashSet::new();
        (0..self.n)
            .filter(|&i| {
                let k = self.key(i);
                k == ALWAYS || keys.insert(k)
            })
            .count() as u32
    }
}

/// True when, in every phase of `op` (its unpaired phases), no bank group holds two distinct units: each phase
/// then costs one wavefront and the instruction its ideal. Lanes may share a unit (a broadcast, or a byte of the
/// same word), except for 64- and 128-bit loads, where two lanes sharing addresses may pair up and widen the
/// phases: there every lane must have a group of its own (then no two lanes share an address). False says
/// nothing: [`bank::wavefronts`] decides. (The bank model's first path, with the op's numbers read once per
/// instruction rather than once per phase.)
const fn costs_its_ideal(op: bank::Op, addrs: &[u32; WARP]) -> bool {
    let shift = op.unit_shift();
    let groups = op.groups();
    let per = op.phase_lanes() as usize;
    let lanes = op.address_lanes() as usize;
    let may_share = !matches!(
        op,
        bank::Op::Lds(bank::Width::B64) | bank::Op::Lds(bank::Width::B128)
    );
    let mut first = 0;
    while first < lanes {
        let mut hit = 0u32;
        let mut unit_of = [0u32; WARP];
        let mut l = first;
        while l < first + per {
            let u = addrs[l] >> shift;
            let g = (u & (groups - 1)) as usize;
            if hit & (1 << g) == 0 {
                hit |= 1 << g;
                unit_of[g] = u;
            } else if !may_share || unit_of[g] != u {
                return false;
            }
            l += 1;
        }
        first += per;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A paired 64-bit load whose halves reuse groups with other units: each unpaired phase looks conflict-free,
    /// but the paired phase (the whole warp) is not, so the glance must not vouch for it.
    #[test]
    fn paired_loads_are_left_to_the_bank_model() {
        let op = bank::Op::LDS64;
        let addrs: [u32; WARP] = core::array::from_fn(|l| {
            let l = l as u32;
            8 * (l % 16 / 2) + if l < 16 { 0 } else { 128 }
        });
        assert!(bank::lanes_paired(&addrs));
        assert!(bank::wavefronts(op, &addrs) > bank::ideal(op, &addrs));
        assert!(!costs_its_ideal(op, &addrs));
        // The same addresses as a store (never paired) cost their ideal, and the glance says so.
        let st = bank::Op::STS64;
        assert_eq!(bank::wavefronts(st, &addrs), bank::ideal(st, &addrs));
        assert!(costs_its_ideal(st, &addrs));
    }

    /// Every small layout (power-of-two and other row lengths, every element size, swizzles of small and
    /// tile-wide span, one and two layers, in elements and bytes, padded or not) and every pattern: two
    /// instructions with the same key cost the same wavefronts and have the same ideal, every key kind is
    /// exercised, and the class walk finds the first conflict a walk over every instruction finds.
    #[test]
    fn equal_keys_cost_the_same() {
        let swizzles = crate::verify::tests::small_swizzles(&[(1, 0, 3)]);
        let shapes = [
            (32, 32),
            (64, 64),
            (32, 128),
            (48, 96),
            (96, 40),
            (32, 66),
            (16, 136),
            (64, 33),
            (32, 100),
            (32, 258),
        ];
        let (mut cases, mut costed, mut walked, mut own_groups) = (0u64, 0u64, 0u64, 0u64);
        let mut skipped = 0u64;
        let mut kinds = [0u64; 4];
        crate::verify::tests::for_each_small_layout(
            &shapes,
            &swizzles,
            &[0, 1, 4, 12, 16, 36],
            |tile, smem, p| {
                if p.check_on(&smem).is_err() {
                    return;
                }
                let op = p.op(tile.elem);
                let c = Classes::of(&smem, p);
                let mut first = std::collections::HashMap::new();
                let mut brute = None;
                for i in 0..c.n {
                    let addrs = p.addrs(&smem, i);
                    assert_eq!(c.addrs(i), addrs, "{p} on {smem}: {i}");
                    if !(i + 1 == c.n && matches!(p.kind, Kind::Row16)) {
                        let (r, d) = p.translate_of(tile, i);
                        assert_eq!(c.place(i), (r as usize, d), "{p} on {smem}: {i}");
                    }
                    let cost = (bank::wavefronts(op, &addrs), bank::ideal(op, &addrs));
                    if costs_its_ideal(op, &addrs) {
                        assert_eq!(cost.0, cost.1, "{p} on {smem}: {i}");
                        own_groups += 1;
                    }
                    if brute.is_none() && cost.0 > cost.1 {
                        brute = Some(i);
                    }
                    let key = c.key(i);
                    if key == ALWAYS {
                        continue;
                    }
                    kinds[(key >> 126) as usize] += 1;
                    let (j, was) = *first.entry(key).or_insert((i, cost));
                    assert_eq!(cost, was, "{p} on {smem}: {i} vs {j} (key {key:#x})");
                }
                // Every instruction a run skips has the key of the one it starts at.
                for i in 0..c.n.saturating_sub(1) {
                    let (_, d) = c.place(i);
                    let j = i as u64 % c.per_row;
                    let same = c.equal_keys_after(i, j, d);
                    assert!(i as u64 + same + 1 < c.n as u64, "{p} on {smem}: {i}");
                    for k in 1..=same as u32 {
                        assert_eq!(
                            c.key(i + k),
                            c.key(i),
                            "{p} on {smem}: {} in the run from {i}",
                            i + k
                        );
                    }
                    skipped += same;
                }
                let repeat = super::super::Period::of(&smem, &p.warp()).len;
                assert_eq!(
                    c.first_conflict(repeat).map(|(i, _)| i),
                    brute,
                    "{p} on {smem}"
                );
                cases += 1;
                walked += c.n as u64;
                costed += c.costed() as u64;
            },
        );
        assert!(
            cases > 5000
                && kinds[1..].iter().all(|&k| k > 1000)
                && costed * 4 < walked
                && own_groups > walked / 4
                && skipped > 100_000,
            "{cases} cases, keys by kind {kinds:?}, {costed} of {walked} instructions costed, \
             {own_groups} conflict-free at a glance, {skipped} in runs of equal keys"
        );
    }
}
