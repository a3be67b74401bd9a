//! Other ways of writing the same swizzle, to and from [`Swizzle`]: Triton's shared-memory layout parameters,
//! the TMA / ThunderKittens byte modes, and the "absolute" convention that names both field positions.
//!
//! ## Triton: `(vec, per_phase, max_phase)`
//! Triton's swizzled shared layout stores element `(row, col)` of a row-major tile with rows of `L` elements at
//!
//! ```text
//!   phase = (row / per_phase) % max_phase
//!   col'  = ((col / vec) ^ phase) * vec + col % vec          offset = row * L + col'
//! ```
//! With `L`, `vec`, `per_phase`, `max_phase` powers of two and `vec * max_phase <= L`, that is exactly
//! `Sw<log2 max_phase, log2 vec, log2(L * per_phase / vec)>` on element offsets: ZZZ is the `col / vec` bits,
//! YYY the `row / per_phase` bits (which start at bit `log2 L + log2 per_phase`). Otherwise it is not an XOR
//! swizzle of offsets (or, with `vec * max_phase > L`, the phase would push columns out of the row) and we refuse.
//! Back from a swizzle: it needs `S > 0`, ZZZ inside the column bits (`M + B <= log2 L`) and YYY inside the row
//! bits (`M + S >= log2 L`). The identity maps to `(1, 1, 1)`.
//!
//! ## TMA and ThunderKittens byte modes
//! `CU_TENSOR_MAP_SWIZZLE_{32B,64B,128B}` (enumerator values 1, 2, 3; `NONE` is 0) are [`ByteMode`]s. ThunderKittens
//! writes the same functions on byte addresses as `addr ^ (((addr % (swizzle_bytes * 8)) >> 7) << 4)` for
//! `swizzle_bytes` in 32, 64, 128 ([`thunderkittens_apply`]).
//!
//! ## Absolute field positions
//! Some code writes `Sw(bits, base, yyy_lsb)` with `base` the lowest ZZZ bit and `shift = yyy_lsb - base`
//! ([`AbsoluteSw`]). For `S > 0` that `base` is CuTe's `M`; for `S < 0` (YYY below ZZZ) CuTe's `M` is the YYY
//! position instead, so `M = min(zzz_lsb, yyy_lsb)`.

use crate::rules::RuleError;
use crate::swizzle::Swizzle;
use crate::units::{ByteMode, Elem, SwizzleIn, Unit};
use core::fmt;

/// Why a convention's parameters are not a swizzle, or a swizzle is not expressible in a convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// A parameter that must be a power of two (at least 1) is not.
    NotPowerOfTwo { what: &'static str, value: u32 },
    /// Triton: `vec * max_phase > row length`, so the XOR would move elements to other rows.
    PhaseWiderThanRow {
        vec: u32,
        max_phase: u32,
        row_elems: u32,
    },
    /// The swizzle has no form in the target convention (`why` says which condition fails).
    NotExpressible { swizzle: Swizzle, why: &'static str },
    /// A byte-mode size that is not 32, 64 or 128 (or a TMA enumerator we do not model).
    UnknownMode { value: u32 },
    /// The converted triple breaks a swizzle rule.
    Rule(RuleError),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::NotPowerOfTwo { what, value } => write!(f, "{what} = {value} is not a power of two"),
            ConvertError::PhaseWiderThanRow { vec, max_phase, row_elems } => write!(
                f,
                "vec * max_phase = {} exceeds the row length {row_elems}: the phase would move elements out of the row",
                vec * max_phase
            ),
            ConvertError::NotExpressible { swizzle, why } => write!(f, "{swizzle} cannot be written this way: {why}"),
            ConvertError::UnknownMode { value } => write!(f, "no byte swizzle mode for {value}"),
            ConvertError::Rule(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for ConvertError {}

const fn log2_exact(what: &'static str, value: u32) -> Result<u32, ConvertError> {
    if value.is_power_of_two() {
        Ok(value.trailing_zeros())
    } else {
        Err(ConvertError::NotPowerOfTwo { what, value })
    }
}

/// Unwrap a `Result` in a `const fn`.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

/// Triton's swizzled shared layout parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TritonShared {
    pub vec: u32,
    pub per_phase: u32,
    pub max_phase: u32,
}

impl TritonShared {
    /// Triton's formula, as written in Triton: the element offset where `(row, col)` is stored, rows of
    /// `row_elems` elements. The reference the conversion is tested against.
    pub const fn offset(&self, row: u32, col: u32, row_elems: u32) -> u32 {
        let phase = (row / self.per_phase) % self.max_phase;
        let col_swizzled = ((col / self.vec) ^ phase) * self.vec + col % self.vec;
        row * row_elems + col_swizzled
    }

    /// The same layout as a swizzle on element offsets.
    ///
    /// ```
    /// use swizzle_spec::convert::TritonShared;
    /// use swizzle_spec::Swizzle;
    /// // f16, 64-element rows (128 bytes): vec 8, per_phase 1, max_phase 8 is the 128-byte swizzle.
    /// let t = TritonShared { vec: 8, per_phase: 1, max_phase: 8 };
    /// assert_eq!(t.to_swizzle(64), Ok(Swizzle::new(3, 3, 3)));
    /// ```
    pub const fn to_swizzle(&self, row_elems: u32) -> Result<Swizzle, ConvertError> {
        let l = tri!(log2_exact("row length", row_elems));
        let v = tri!(log2_exact("vec", self.vec));
        let p = tri!(log2_exact("per_phase", self.per_phase));
        let b = tri!(log2_exact("max_phase", self.max_phase));
        if v + b > l {
            return Err(ConvertError::PhaseWiderThanRow {
                vec: self.vec,
                max_phase: self.max_phase,
                row_elems,
            });
        }
        if b == 0 {
            return Ok(Swizzle::IDENTITY);
        }
        match Swizzle::try_new(b, v, (l + p - v) as i32) {
            Ok(s) => Ok(s),
            Err(e) => Err(ConvertError::Rule(e)),
        }
    }

    /// [`TritonShared::to_swizzle`], tagged with the element type it counts.
    pub const fn to_swizzle_in(
        &self,
        row_elems: u32,
        elem: Elem,
    ) -> Result<SwizzleIn, ConvertError> {
        match self.to_swizzle(row_elems) {
            Ok(s) => Ok(SwizzleIn::new(s, Unit::Elems(elem))),
            Err(e) => Err(e),
        }
    }

    /// The Triton parameters of a swizzle on element offsets, rows of `row_elems` elements.
    pub const fn from_swizzle(sw: Swizzle, row_elems: u32) -> Result<TritonShared, ConvertError> {
        let l = tri!(log2_exact("row length", row_elems));
        if sw.is_identity() {
            return Ok(TritonShared {
                vec: 1,
                per_phase: 1,
                max_phase: 1,
            });
        }
        if sw.shift <= 0 {
            return not_expressible(
                sw,
                "Triton's phase comes from the row, above the column bits, so S must be positive",
            );
        }
        if sw.base + sw.bits > l {
            return not_expressible(
                sw,
                "the XORed bits (M + B) must lie within the column bits (log2 of the row length)",
            );
        }
        let yyy_lsb = sw.base + sw.shift as u32;
        if yyy_lsb < l {
            return not_expressible(sw, "the phase bits (M + S) must lie in the row bits (at or above log2 of the row length)");
        }
        Ok(TritonShared {
            vec: 1 << sw.base,
            per_phase: 1 << (yyy_lsb - l),
            max_phase: 1 << sw.bits,
        })
    }
}

const fn not_expressible<T>(swizzle: Swizzle, why: &'static str) -> Result<T, ConvertError> {
    Err(ConvertError::NotExpressible { swizzle, why })
}

/// ThunderKittens' shared-tile swizzle on a byte address, as ThunderKittens writes it (the reference for
/// [`ByteMode`]); `swizzle_bytes` is 32, 64 or 128.
pub const fn thunderkittens_apply(addr: u32, swizzle_bytes: u32) -> u32 {
    let swizzle_repeat = swizzle_bytes * 8;
    let swizzle = ((addr % swizzle_repeat) >> 7) << 4;
    addr ^ swizzle
}

impl ByteMode {
    /// The byte mode with this swizzle width (TMA's and ThunderKittens' `swizzle_bytes`; 0 = `None`).
    pub const fn from_swizzle_bytes(bytes: u32) -> Result<ByteMode, ConvertError> {
        match bytes {
            0 => Ok(ByteMode::None),
            32 => Ok(ByteMode::Sw32),
            64 => Ok(ByteMode::Sw64),
            128 => Ok(ByteMode::Sw128),
            _ => Err(ConvertError::UnknownMode { value: bytes }),
        }
    }

    /// The `CUtensorMapSwizzle` enumerator value (`CU_TENSOR_MAP_SWIZZLE_NONE` = 0 ... `_128B` = 3).
    pub const fn cu_value(self) -> u32 {
        self as u32
    }

    /// The mode of a `CUtensorMapSwizzle` value; the newer `_128B_ATOM_*` values (4 and up) are not XOR swizzles
    /// of this family and are refused.
    pub const fn from_cu_value(value: u32) -> Result<ByteMode, ConvertError> {
        if value < ByteMode::ALL.len() as u32 {
            Ok(ByteMode::ALL[value as usize])
        } else {
            Err(ConvertError::UnknownMode { value })
        }
    }
}

/// A swizzle with both field positions written absolutely: `zzz_lsb` (often called `base`) and `yyy_lsb`, with
/// `shift = yyy_lsb - zzz_lsb`.
///
/// ```
/// use swizzle_spec::convert::AbsoluteSw;
/// use swizzle_spec::Swizzle;
/// // "bits 7..10 are XORed into bits 4..7"
/// let abs = AbsoluteSw { bits: 3, zzz_lsb: 4, yyy_lsb: 7 };
/// assert_eq!(abs.to_swizzle(), Ok(Swizzle::new(3, 4, 3)));
/// // YYY below ZZZ: CuTe's M is the YYY position.
/// assert_eq!(AbsoluteSw { bits: 2, zzz_lsb: 6, yyy_lsb: 1 }.to_swizzle(), Ok(Swizzle::new(2, 1, -5)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AbsoluteSw {
    pub bits: u32,
    /// Lowest bit of ZZZ, the field that gets XORed.
    pub zzz_lsb: u32,
    /// Lowest bit of YYY, the field that is read.
    pub yyy_lsb: u32,
}

impl AbsoluteSw {
    /// CuTe's `Sw<B, min(zzz_lsb, yyy_lsb), yyy_lsb - zzz_lsb>`; the rules apply as usual.
    pub const fn to_swizzle(self) -> Result<Swizzle, ConvertError> {
        let base = if self.zzz_lsb < self.yyy_lsb {
            self.zzz_lsb
        } else {
            self.yyy_lsb
        };
        if self.zzz_lsb > 64 || self.yyy_lsb > 64 {
            return Err(ConvertError::Rule(RuleError::MaskOutOfRange {
                bits: self.bits,
                base,
                shift: 0,
            }));
        }
        let shift = self.yyy_lsb as i32 - self.zzz_lsb as i32;
        match Swizzle::try_new(self.bits, base, shift) {
            Ok(s) => Ok(s),
            Err(e) => Err(ConvertError::Rule(e)),
        }
    }

    /// The field positions of a swizzle (computed from M and S, so they are defined for `B = 0` too).
    pub const fn from_swizzle(sw: Swizzle) -> AbsoluteSw {
        let s = sw.shift.unsigned_abs();
        if sw.shift >= 0 {
            AbsoluteSw {
                bits: sw.bits,
                zzz_lsb: sw.base,
                yyy_lsb: sw.base + s,
            }
        } else {
            AbsoluteSw {
                bits: sw.bits,
                zzz_lsb: sw.base + s,
                yyy_lsb: sw.base,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal_small() -> impl Iterator<Item = Swizzle> {
        Swizzle::all_legal(3, 6, 8)
    }

    const POW2: [u32; 5] = [1, 2, 4, 8, 16];

    /// Every power-of-two Triton layout on rows of 8..128 elements: the swizzle agrees with Triton's formula on
    /// every element of 64 rows, and converts back to the same parameters (when `max_phase > 1`; with one phase
    /// the layout is the identity whatever vec and per_phase say).
    #[test]
    fn triton_round_trip_and_agreement() {
        for row_elems in [8u32, 16, 32, 64, 128] {
            for vec in POW2 {
                for per_phase in POW2 {
                    for max_phase in POW2 {
                        let t = TritonShared {
                            vec,
                            per_phase,
                            max_phase,
                        };
                        let sw = match t.to_swizzle(row_elems) {
                            Ok(sw) => sw,
                            Err(e) => {
                                assert!(vec * max_phase > row_elems, "{t:?} {row_elems}: {e}");
                                continue;
                            }
                        };
                        for row in 0..64 {
                            for col in 0..row_elems {
                                assert_eq!(
                                    sw.apply(row * row_elems + col),
                                    t.offset(row, col, row_elems),
                                    "{t:?} L={row_elems} {sw} at ({row},{col})"
                                );
                            }
                        }
                        let back = TritonShared::from_swizzle(sw, row_elems).unwrap();
                        if max_phase > 1 {
                            assert_eq!(back, t, "{sw}");
                        } else {
                            assert_eq!(
                                back,
                                TritonShared {
                                    vec: 1,
                                    per_phase: 1,
                                    max_phase: 1
                                }
                            );
                        }
                    }
                }
            }
        }
    }

    /// Swizzle -> Triton -> swizzle is the identity wherever the first step succeeds, and it succeeds exactly
    /// under the documented conditions.
    #[test]
    fn swizzle_to_triton_and_back() {
        for sw in legal_small() {
            for row_elems in [16u32, 64, 256] {
                let l = row_elems.trailing_zeros();
                let ok = sw.is_identity()
                    || (sw.shift > 0 && sw.base + sw.bits <= l && sw.base + sw.shift as u32 >= l);
                match TritonShared::from_swizzle(sw, row_elems) {
                    Ok(t) => {
                        assert!(ok, "{sw} L={row_elems}");
                        let again = t.to_swizzle(row_elems).unwrap();
                        assert!(
                            sw.is_identity() && again.is_identity() || again == sw,
                            "{sw} -> {t:?} -> {again}"
                        );
                    }
                    Err(_) => assert!(!ok, "{sw} L={row_elems}"),
                }
            }
        }
    }

    #[test]
    fn triton_errors() {
        let t = TritonShared {
            vec: 8,
            per_phase: 1,
            max_phase: 8,
        };
        assert!(matches!(
            t.to_swizzle(48),
            Err(ConvertError::NotPowerOfTwo {
                what: "row length",
                ..
            })
        ));
        assert!(matches!(
            t.to_swizzle(32),
            Err(ConvertError::PhaseWiderThanRow { .. })
        ));
        let odd = TritonShared {
            vec: 6,
            per_phase: 1,
            max_phase: 8,
        };
        assert!(odd
            .to_swizzle(64)
            .unwrap_err()
            .to_string()
            .contains("vec = 6"));
        let e = TritonShared::from_swizzle(Swizzle::new(3, 3, -3), 64).unwrap_err();
        assert!(e.to_string().contains("S must be positive"), "{e}");
        let s = t.to_swizzle_in(64, Elem::F16).unwrap();
        assert_eq!(s.to_bytes().unwrap().swizzle, ByteMode::Sw128.swizzle());
    }

    /// The byte modes are ThunderKittens' formula on every address of four periods, and round-trip through their
    /// swizzle widths and TMA enumerator values.
    #[test]
    fn byte_modes_match_thunderkittens_and_tma() {
        for bytes in [32u32, 64, 128] {
            let mode = ByteMode::from_swizzle_bytes(bytes).unwrap();
            assert_eq!(mode.swizzle_bytes(), bytes);
            let sw = mode.swizzle();
            for addr in 0..4 * mode.alignment() {
                assert_eq!(
                    sw.apply(addr),
                    thunderkittens_apply(addr, bytes),
                    "{mode} at {addr}"
                );
            }
        }
        for mode in ByteMode::ALL {
            assert_eq!(ByteMode::from_cu_value(mode.cu_value()), Ok(mode));
            assert_eq!(ByteMode::from_swizzle_bytes(mode.swizzle_bytes()), Ok(mode));
        }
        assert_eq!(ByteMode::Sw128.cu_value(), 3);
        assert!(ByteMode::from_cu_value(4).is_err());
        assert!(ByteMode::from_swizzle_bytes(256).is_err());
    }

    #[test]
    fn absolute_round_trip() {
        for sw in legal_small() {
            let abs = AbsoluteSw::from_swizzle(sw);
            assert_eq!(abs.to_swizzle(), Ok(sw), "{sw} -> {abs:?}");
            if !sw.is_identity() {
                assert_eq!(abs.zzz_lsb, sw.zzz_msk().trailing_zeros(), "{sw}");
                assert_eq!(abs.yyy_lsb, sw.yyy_msk().trailing_zeros(), "{sw}");
            }
        }
        assert!(AbsoluteSw {
            bits: 3,
            zzz_lsb: 4,
            yyy_lsb: 6
        }
        .to_swizzle()
        .is_err());
        assert!(AbsoluteSw {
            bits: 3,
            zzz_lsb: 4,
            yyy_lsb: 1000
        }
        .to_swizzle()
        .is_err());
    }
}
