//! The XOR swizzle `Sw<B, M, S>`, with CuTe's exact semantics.
//!
//! ```text
//!   0bxxxxxxxxxxxxYYYxxxxZZZMMMM      (S > 0: YYY sits S bits above ZZZ)
//!                 ^^^    ^^^^^^^
//!                  |      |  `-- M base bits: kept (a "unit" of 2^M elements/bytes moves as one)
//!                  |      `-- ZZZ: the B bits at [M, M+B) that get XORed
//!                  `-- YYY: the B bits at [M+S, M+S+B) that select the XOR pattern
//!   apply(o) = o ^ ((o & yyy_msk) >> S)
//! ```
//! A negative `S` swaps the roles: YYY sits |S| bits *below* ZZZ and is shifted left.

use crate::rules::{self, RuleError};
#[cfg(feature = "alloc")]
use alloc::string::{String, ToString};
use core::fmt;
#[cfg(feature = "alloc")]
use core::str::FromStr;

/// An XOR swizzle: `bits` (B) bits, `base` (M) untouched low bits, `shift` (S) distance from YYY to ZZZ.
///
/// ```
/// use swizzle_spec::Swizzle;
/// const SW: Swizzle = Swizzle::new(3, 3, 3);
/// // element (row 1, col 0) of a 64-wide f16 tile: offset 64 -> YYY = 0b001 -> chunk 0 becomes chunk 1
/// assert_eq!(SW.apply(64), 72);
/// assert_eq!(SW.to_string(), "Sw<3,3,3>");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// B: number of bits in the XOR mask.
    pub bits: u32,
    /// M: number of least-significant bits kept constant.
    pub base: u32,
    /// S: distance to shift the YYY mask (negative: shift left).
    pub shift: i32,
}

impl Swizzle {
    /// The identity swizzle `Sw<0,0,0>`.
    pub const IDENTITY: Swizzle = Swizzle {
        bits: 0,
        base: 0,
        shift: 0,
    };

    /// Build a swizzle in a const context; panics (a compile error in `const`) with the rule's message.
    pub const fn new(bits: u32, base: u32, shift: i32) -> Swizzle {
        match rules::validate(bits, base, shift) {
            Ok(()) => Swizzle { bits, base, shift },
            Err(e) => panic!("{}", e.message()),
        }
    }

    /// Build a swizzle from run-time input.
    pub const fn try_new(bits: u32, base: u32, shift: i32) -> Result<Swizzle, RuleError> {
        match rules::validate(bits, base, shift) {
            Ok(()) => Ok(Swizzle { bits, base, shift }),
            Err(e) => Err(e),
        }
    }

    /// `(1 << B) - 1`.
    pub const fn bit_msk(&self) -> u32 {
        // Total even for a hand-built value that skipped `validate` (public fields): no shift overflow.
        if self.bits == 0 {
            0
        } else if self.bits >= 32 {
            u32::MAX
        } else {
            u32::MAX >> (32 - self.bits)
        }
    }

    /// YYY: the bits that select the pattern, `bit_msk << (M + max(0, S))`.
    pub const fn yyy_msk(&self) -> u32 {
        let up = if self.shift > 0 { self.shift as u32 } else { 0 };
        shl(self.bit_msk(), self.base.saturating_add(up))
    }

    /// ZZZ: the bits that get XORed, `bit_msk << (M - min(0, S))`.
    pub const fn zzz_msk(&self) -> u32 {
        let up = if self.shift < 0 {
            self.shift.unsigned_abs()
        } else {
            0
        };
        shl(self.bit_msk(), self.base.saturating_add(up))
    }

    /// `S` as CuTe's `msk_sft`.
    pub const fn msk_sft(&self) -> i32 {
        self.shift
    }

    /// `apply(o) = o ^ shiftr(o & yyy_msk, S)`; a negative `S` shifts left.
    pub const fn apply(&self, offset: u32) -> u32 {
        offset ^ shiftr(offset & self.yyy_msk(), self.shift)
    }

    /// The swizzle repeats with this period: `apply(o + k * period) == apply(o) + k * period`.
    /// `2^(B + M + |S|)`; 1 for the identity.
    pub const fn period(&self) -> u64 {
        let span = self
            .bits
            .saturating_add(self.base)
            .saturating_add(self.shift.unsigned_abs());
        if self.bits == 0 {
            1
        } else if span >= 64 {
            u64::MAX // only for a hand-built value that skipped `validate`
        } else {
            1u64 << span
        }
    }

    /// Every XOR swizzle is an involution: `inverse() == self`.
    pub const fn inverse(&self) -> Swizzle {
        *self
    }

    /// Every legal swizzle with `B <= max_bits`, `M <= max_base` and `|S| <= max_shift`, in `(B, M, S)` order:
    /// the small exhaustive domain tests and searches sweep.
    ///
    /// ```
    /// use swizzle_spec::Swizzle;
    /// // B = 0: M in 0..=1, S in -1..=1 (6); B = 1: M in 0..=1, S = +-1 (4).
    /// assert_eq!(Swizzle::all_legal(1, 1, 1).count(), 10);
    /// assert!(Swizzle::all_legal(3, 4, 6).all(|sw| sw.shift.unsigned_abs() >= sw.bits));
    /// ```
    pub fn all_legal(
        max_bits: u32,
        max_base: u32,
        max_shift: u32,
    ) -> impl Iterator<Item = Swizzle> {
        let max_s = max_shift.min(i32::MAX as u32) as i32;
        (0..=max_bits).flat_map(move |b| {
            (0..=max_base).flat_map(move |m| {
                (-max_s..=max_s).filter_map(move |s| Swizzle::try_new(b, m, s).ok())
            })
        })
    }

    /// True for `B == 0` (the identity function, whatever M and S say).
    pub const fn is_identity(&self) -> bool {
        self.bits == 0
    }
}

const fn shl(x: u32, n: u32) -> u32 {
    if n >= 32 {
        0
    } else {
        x << n
    }
}

/// CuTe's `shiftr`: right for positive `s`, left for negative.
const fn shiftr(x: u32, s: i32) -> u32 {
    if s >= 0 {
        if s >= 32 {
            0
        } else {
            x >> s
        }
    } else {
        shl(x, s.unsigned_abs())
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// Why a `"B,M,S"` string is not a swizzle.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSwizzleError {
    /// Not three comma-separated integers.
    Syntax(String),
    /// Three integers that break a rule.
    Rule(RuleError),
}

#[cfg(feature = "alloc")]
impl fmt::Display for ParseSwizzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSwizzleError::Syntax(s) => {
                write!(f, "expected swizzle as B,M,S (e.g. 3,3,3), got {s:?}")
            }
            ParseSwizzleError::Rule(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(feature = "alloc")]
impl core::error::Error for ParseSwizzleError {}

#[cfg(feature = "alloc")]
impl FromStr for Swizzle {
    type Err = ParseSwizzleError;

    /// Parses `"B,M,S"` (spaces allowed) or the `Display` form `"Sw<B,M,S>"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let t = t
            .strip_prefix("Sw<")
            .and_then(|r| r.strip_suffix('>'))
            .unwrap_or(t);
        let bad = || ParseSwizzleError::Syntax(s.to_string());
        let mut parts = t.split(',').map(str::trim);
        let (Some(b), Some(m), Some(sh), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let b: u32 = b.parse().map_err(|_| bad())?;
        let m: u32 = m.parse().map_err(|_| bad())?;
        let sh: i32 = sh.parse().map_err(|_| bad())?;
        Swizzle::try_new(b, m, sh).map_err(ParseSwizzleError::Rule)
    }
}

// ---- The C++ twin ----

/// C++ twin of [`Swizzle`] for the generated header (`swizzle_core::cuda`): `swz::Swizzle<B, M, S>` with the same
/// masks and `apply` as above, and the rules of `rules.rs` as `static_assert`s with the same messages. Change the
/// two together; `tests/tests/header_host.rs` compiles this and compares it with [`Swizzle::apply`].
#[cfg(feature = "alloc")]
pub fn cuda_swizzle_template() -> String {
    let shift_msg = RuleError::ShiftSmallerThanBits { bits: 0, shift: 0 }.message();
    let span_msg = RuleError::MaskOutOfRange {
        bits: 0,
        base: 0,
        shift: 0,
    }
    .message();
    CUDA_SWIZZLE
        .replace("@SHIFT_SMALLER_THAN_BITS@", shift_msg)
        .replace("@MASK_OUT_OF_RANGE@", span_msg)
        .replace("@MAX_SPAN_BITS@", &rules::MAX_SPAN_BITS.to_string())
}

/// The C++ text behind [`cuda_swizzle_template`]; `@...@` are the rule messages and bound from `rules.rs`.
#[cfg(feature = "alloc")]
const CUDA_SWIZZLE: &str = r#"namespace detail {
// shl/shiftr as in swizzle.rs: a shift by >= 32 gives 0 instead of undefined behaviour.
SWZ_HD constexpr uint32_t shl(uint32_t x, int n) { return n >= 32 ? 0u : x << n; }
SWZ_HD constexpr uint32_t shiftr(uint32_t x, int s) {
    return s >= 0 ? (s >= 32 ? 0u : x >> s) : shl(x, -s);
}
SWZ_HD constexpr uint32_t low_bits(int b) { return b <= 0 ? 0u : (b >= 32 ? 0xFFFFFFFFu : (1u << b) - 1u); }
}  // namespace detail

/// CuTe's Swizzle<B, M, S> (= swizzle_core::Swizzle { bits: B, base: M, shift: S }):
///   0bxxxxxxxxxxxxYYYxxxxZZZMMMM   apply(o) = o ^ ((o & yyy_msk) >> S)   (S < 0: shifted left)
template <int B, int M, int S>
struct Swizzle {
    static_assert(B >= 0 && M >= 0, "B and M must be >= 0");
    static_assert((S < 0 ? -S : S) >= B, "@SHIFT_SMALLER_THAN_BITS@");
    static_assert(B + M + (S < 0 ? -S : S) <= @MAX_SPAN_BITS@, "@MASK_OUT_OF_RANGE@");

    static constexpr int num_bits = B;
    static constexpr int num_base = M;
    static constexpr int num_shft = S;
    /// (1 << B) - 1
    static constexpr uint32_t bit_msk = detail::low_bits(B);
    /// YYY: the bits that select the pattern
    static constexpr uint32_t yyy_msk = detail::shl(bit_msk, M + (S > 0 ? S : 0));
    /// ZZZ: the bits that get XORed
    static constexpr uint32_t zzz_msk = detail::shl(bit_msk, M + (S < 0 ? -S : 0));
    static constexpr int msk_sft = S;

    static SWZ_HD constexpr uint32_t apply(uint32_t offset) {
        return offset ^ detail::shiftr(offset & yyy_msk, S);
    }
    SWZ_HD constexpr uint32_t operator()(uint32_t offset) const { return apply(offset); }
};"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// CuTe's formula written independently with i64 arithmetic, as the reference.
    fn cute_apply(b: u32, m: u32, s: i32, o: u64) -> u64 {
        let bit_msk = (1u64 << b) - 1;
        let yyy = bit_msk << (m as i64 + s.max(0) as i64);
        let zzz = bit_msk << (m as i64 - s.min(0) as i64);
        let _ = zzz;
        let y = o & yyy;
        let sh = if s >= 0 { y >> s } else { y << (-s) };
        o ^ sh
    }

    #[test]
    fn matches_cute_and_is_involution_on_small_domain() {
        for b in 0..=3u32 {
            for m in 0..=4u32 {
                for s in -6..=6i32 {
                    let Ok(sw) = Swizzle::try_new(b, m, s) else {
                        assert!(s.unsigned_abs() < b);
                        continue;
                    };
                    for o in 0..(1u32 << 12) {
                        assert_eq!(
                            sw.apply(o) as u64,
                            cute_apply(b, m, s, o as u64),
                            "{sw} at {o}"
                        );
                        assert_eq!(
                            sw.inverse().apply(sw.apply(o)),
                            o,
                            "{sw} not an involution at {o}"
                        );
                    }
                }
            }
        }
    }

    /// On every period block `[k*P, (k+1)*P)` the swizzle is a permutation of that block (so it is periodic,
    /// stays inside the block, and is a bijection), for every legal small spec.
    #[test]
    fn bijection_on_each_period() {
        for sw in Swizzle::all_legal(3, 4, 6) {
            let p = sw.period() as u32;
            for block in 0..3u32 {
                let lo = block * p;
                let mut seen = vec![false; p as usize];
                for o in lo..lo + p {
                    let a = sw.apply(o);
                    assert!(
                        (lo..lo + p).contains(&a),
                        "{sw} moves {o} out of its period block"
                    );
                    assert!(
                        !seen[(a - lo) as usize],
                        "{sw} is not injective on block {block}"
                    );
                    seen[(a - lo) as usize] = true;
                    assert_eq!(a - lo, sw.apply(o - lo), "{sw} is not periodic at {o}");
                }
            }
        }
    }

    #[test]
    fn masks_match_the_drawing() {
        let sw = Swizzle::new(3, 4, 3);
        assert_eq!(sw.bit_msk(), 0b111);
        assert_eq!(sw.zzz_msk(), 0b111_0000);
        assert_eq!(sw.yyy_msk(), 0b11_1000_0000);
        assert_eq!(sw.period(), 1024);
        let neg = Swizzle::new(2, 1, -3);
        assert_eq!(neg.yyy_msk(), 0b110);
        assert_eq!(neg.zzz_msk(), 0b11_0000);
        assert_eq!(Swizzle::IDENTITY.period(), 1);
    }

    #[test]
    fn const_new_folds() {
        const SW: Swizzle = Swizzle::new(3, 3, 3);
        const _: () = assert!(SW.apply(64) == 72);
        const _: () = assert!(SW.inverse().apply(72) == 64);
    }

    /// The fields are public (CuTe-like, usable in patterns); a value built by hand without `validate` must still
    /// never panic or overflow.
    #[test]
    fn hand_built_values_are_total() {
        for (b, m, s) in [
            (40, 0, 40),
            (33, u32::MAX, i32::MIN),
            (32, 32, 32),
            (1, u32::MAX, 1),
        ] {
            let sw = Swizzle {
                bits: b,
                base: m,
                shift: s,
            };
            for o in [0, 1, u32::MAX] {
                let _ = (sw.apply(o), sw.yyy_msk(), sw.zzz_msk(), sw.period());
            }
        }
    }

    #[test]
    fn refuses_overlapping_fields() {
        assert!(matches!(
            Swizzle::try_new(3, 3, 2),
            Err(RuleError::ShiftSmallerThanBits { .. })
        ));
        assert!(matches!(
            "3,3,2".parse::<Swizzle>(),
            Err(ParseSwizzleError::Rule(_))
        ));
        assert!(Swizzle::try_new(8, 16, 9).is_err());
        assert!(Swizzle::try_new(8, 16, 8).is_ok());
    }

    #[test]
    fn display_round_trips() {
        let sw = Swizzle::new(2, 4, -3);
        assert_eq!(sw.to_string().parse::<Swizzle>().unwrap(), sw);
        assert_eq!("3, 4, 3".parse::<Swizzle>().unwrap(), Swizzle::new(3, 4, 3));
    }
}
