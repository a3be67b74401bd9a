//! FP8 E4M3 on the host: exact decoding, round-to-nearest-even encoding, and the host type [`E4m3`] that carries
//! `Elem::E4M3` (`__nv_fp8_e4m3`) buffers.
//!
//! The format is the "fn" variant of the OCP FP8 spec, the one `__nv_fp8_e4m3`, cuBLASLt and torch's
//! `float8_e4m3fn` use: 1 sign bit, 4 exponent bits (bias 7), 3 mantissa bits, no infinities, one NaN per sign
//! (`S.1111.111`: 0x7F and 0xFF).
//!
//! ```text
//!   bits  s eeee mmm
//!   e = 0     subnormal: (-1)^s * m/8 * 2^-6          0x01 = 2^-9, the smallest non-zero value
//!   e = 1..15 normal:    (-1)^s * (1 + m/8) * 2^(e-7) 0x38 = 1.0, 0x7E = 448, the largest finite value
//!   0x7F      NaN
//! ```
//!
//! **Encoding** ([`encode`]) rounds to the nearest value, ties to the even code, and **saturates**: a finite value
//! or an infinity beyond ±448 becomes ±448, NaN stays NaN. That is `__nv_cvt_float_to_fp8(x, __NV_SATFINITE,
//! __NV_E4M3)`, what cuBLASLt applies to FP8 outputs, and what FP8 quantizers do by clamping to ±448 before the
//! cast. (torch's plain `.to(torch.float8_e4m3fn)` agrees below 480 and gives NaN at or above it.)
//!
//! Below every binade the grid is uniform: in binade `e` (values in `[2^e, 2^(e+1))`, `e >= -6`) the values are
//! `n * 2^(e-3)` for `n` in `8..16`, and the subnormals are `n * 2^-9` for `n` in `0..8`. Their codes are
//! `((e + 6) << 3) + n` in both cases (with `e = -6` for the subnormals), so a rounded `n` of 16 carries into the
//! next binade's code by itself.
//!
//! ```
//! use gpu_kernels::elem::e4m3::{decode, encode};
//! assert_eq!(encode(1.0), 0x38);
//! assert_eq!(decode(0x7E), 448.0);
//! assert_eq!(encode(1000.0), 0x7E); // saturates
//! assert_eq!(encode(1.0 + 1.0 / 16.0), 0x38); // a tie: to the even code
//! assert!(decode(0x7F).is_nan());
//! ```

use super::{Elem, HostElem};

/// The largest finite magnitude, `1.75 * 2^8`.
pub const MAX: f64 = 448.0;
/// The smallest normal magnitude, `2^-6`.
pub const MIN_NORMAL: f64 = 1.0 / 64.0;
/// The smallest subnormal magnitude (the spacing of the subnormals), `2^-9`.
pub const MIN_SUBNORMAL: f64 = 1.0 / 512.0;
/// The NaN code with a clear sign bit.
pub const NAN: u8 = 0x7F;
/// The code of [`MAX`].
pub const MAX_CODE: u8 = 0x7E;

/// The value of a code, exactly (every E4M3 value is an f32 and an f64).
pub fn decode(bits: u8) -> f64 {
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, m) = ((bits >> 3) & 0xF, bits & 7);
    if e == 0xF && m == 7 {
        return f64::NAN;
    }
    let mag = if e == 0 {
        m as f64 * MIN_SUBNORMAL
    } else {
        (8 + m) as f64 * 2f64.powi(e as i32 - 10)
    };
    sign * mag
}

/// `x` rounded to the nearest E4M3 value (ties to the even code), saturating to ±448; NaN gives NaN (the sign
/// kept). Exact for every f32 and f64 input (one rounding).
pub fn encode(x: f64) -> u8 {
    let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
    if x.is_nan() {
        return sign | NAN;
    }
    let a = x.abs();
    if a >= MAX {
        return sign | MAX_CODE;
    }
    // The binade of `a` (exponent of its leading bit), no lower than the subnormals' -6. `a` < 448, so a
    // normal f64 exponent field holds it; f64 subnormals (and zero) land in the subnormal range.
    let raw = ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let e = raw.max(-6);
    // n = a / 2^(e-3), rounded: exact division by a power of two, one rounding.
    let n = (a * 2f64.powi(3 - e)).round_ties_even() as i32;
    // n in 0..=16; the code carries into the next binade at 16 (and 448 is not reachable from below 448 + 16).
    let code = ((e + 6) << 3) + n;
    sign | code.min(MAX_CODE as i32) as u8
}

/// An FP8 E4M3 value as stored: one byte, the device's `__nv_fp8_e4m3`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct E4m3(pub u8);

impl E4m3 {
    /// The value, exactly.
    pub fn to_f64(self) -> f64 {
        decode(self.0)
    }
    /// `v` rounded to nearest even, saturating ([`encode`]).
    pub fn from_f64(v: f64) -> E4m3 {
        E4m3(encode(v))
    }
}

impl std::fmt::Debug for E4m3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (0x{:02X})", self.to_f64(), self.0)
    }
}

// SAFETY: a plain byte, `repr(transparent)` over u8: the device's `__nv_fp8_e4m3` (one byte, any bits valid).
unsafe impl cudarc::driver::DeviceRepr for E4m3 {}
// SAFETY: the zero byte is +0.0.
unsafe impl cudarc::driver::ValidAsZeroBits for E4m3 {}

impl HostElem for E4m3 {
    const ELEM: Elem = Elem::E4M3;
    fn to_f64(self) -> f64 {
        decode(self.0)
    }
    fn from_f64(v: f64) -> Self {
        E4m3(encode(v))
    }
    fn bits(self) -> u32 {
        self.0 as u32
    }
}
