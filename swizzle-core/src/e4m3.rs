//! The FP8 E4M3 value codec (`Elem::E4M3`, the device's `__nv_fp8_e4m3`): exact decoding and round-to-nearest-even,
//! saturating encoding, as `const fn`s.
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
//! use swizzle_core::e4m3::{decode, encode};
//! assert_eq!(encode(1.0), 0x38);
//! assert_eq!(decode(0x7E), 448.0);
//! assert_eq!(encode(1000.0), 0x7E); // saturates
//! assert_eq!(encode(1.0 + 1.0 / 16.0), 0x38); // a tie: to the even code
//! assert!(decode(0x7F).is_nan());
//! ```

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

/// `2^e`, exactly, for a normal `e` (`-1022..=1023`).
const fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// The value of a code, exactly (every E4M3 value is an f32 and an f64).
pub const fn decode(bits: u8) -> f64 {
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, m) = ((bits >> 3) & 0xF, bits & 7);
    if e == 0xF && m == 7 {
        return f64::NAN;
    }
    let mag = if e == 0 {
        m as f64 * MIN_SUBNORMAL
    } else {
        (8 + m) as f64 * pow2(e as i32 - 10)
    };
    sign * mag
}

/// `x` rounded to the nearest E4M3 value (ties to the even code), saturating to ±448; NaN gives NaN (the sign
/// kept). Exact for every f32 and f64 input (one rounding).
pub const fn encode(x: f64) -> u8 {
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
    let e = if raw > -6 { raw } else { -6 };
    // y = a / 2^(e-3) in [0, 16): exact division by a power of two; its fraction (exact too) decides the one
    // rounding, to nearest, ties to even.
    let y = a * pow2(3 - e);
    let t = y as i32;
    let frac = y - t as f64;
    let n = if frac > 0.5 || (frac == 0.5 && t % 2 == 1) {
        t + 1
    } else {
        t
    };
    // n in 0..=16; the code carries into the next binade at 16 (and 448 is not reachable from below 448 + 16).
    let code = ((e + 6) << 3) + n;
    sign | if code < MAX_CODE as i32 {
        code as u8
    } else {
        MAX_CODE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{splitmix64, STEP};

    /// Every code, from the format's definition written independently of [`decode`]: sign, then the value from
    /// the exponent and mantissa fields with `powf`.
    #[test]
    fn all_256_codes_decode_to_the_formats_values() {
        let mut finite = 0;
        for c in 0..=255u8 {
            let v = decode(c);
            let (s, e, m) = (c >> 7, (c >> 3) & 15, c & 7);
            if e == 15 && m == 7 {
                assert!(v.is_nan(), "0x{c:02X}");
                continue;
            }
            finite += 1;
            let mag = if e == 0 {
                (m as f64 / 8.0) * 2f64.powf(-6.0)
            } else {
                (1.0 + m as f64 / 8.0) * 2f64.powf(e as f64 - 7.0)
            };
            assert_eq!(v, if s == 1 { -mag } else { mag }, "0x{c:02X}");
            assert_eq!(v.is_sign_negative(), s == 1, "0x{c:02X} keeps its sign");
            // Every value is exact in f32, and encodes back to its own code (-0 to 0x80).
            assert_eq!(v as f32 as f64, v);
            assert_eq!(encode(v), c, "0x{c:02X} round trip");
        }
        assert_eq!(finite, 254);
        assert_eq!((decode(0x7E), decode(0xFE)), (448.0, -448.0));
        assert_eq!(
            (decode(0x01), decode(0x08), decode(0x38)),
            (MIN_SUBNORMAL, MIN_NORMAL, 1.0)
        );
        // Positive codes 0..=0x7E are strictly increasing values.
        for c in 0..0x7Eu8 {
            assert!(decode(c) < decode(c + 1), "0x{c:02X}");
        }
    }

    /// The brute-force oracle: the nearest of the 254 finite values, ties to the even code, saturating.
    fn nearest(x: f64) -> u8 {
        if x.is_nan() {
            return NAN | if x.is_sign_negative() { 0x80 } else { 0 };
        }
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        let a = x.abs().min(MAX);
        let mut best = 0u8;
        for c in 0..=MAX_CODE {
            let (d, db) = ((decode(c) - a).abs(), (decode(best) - a).abs());
            if d < db || (d == db && c % 2 == 0 && best % 2 == 1) {
                best = c;
            }
        }
        sign | best
    }

    #[test]
    fn encoding_is_round_to_nearest_even_on_random_floats() {
        // Random f32 bit patterns over the whole range (most saturate or flush), then random values inside
        // E4M3's range in every binade, then every midpoint between neighbours (the ties) and its neighbours.
        let words: Vec<u64> = (0..30_000u64)
            .map(|i| splitmix64((0xE4 ^ STEP).wrapping_add(i.wrapping_mul(STEP))))
            .collect();
        for &w in &words[..10_000] {
            let x = f32::from_bits((w >> 32) as u32) as f64;
            assert_eq!(encode(x), nearest(x), "{x:e}");
        }
        for &w in &words[10_000..] {
            let mant = (w >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
            let binade = (w % 19) as i32 - 11; // 2^-11 .. 2^7
            let sign = if w & 1 << 10 != 0 { -1.0 } else { 1.0 };
            let x = (sign * (1.0 + mant) * 2f64.powi(binade)) as f32 as f64;
            assert_eq!(encode(x), nearest(x), "{x:e}");
        }
        for c in 0..MAX_CODE {
            let mid = (decode(c) + decode(c + 1)) / 2.0;
            let even = if c % 2 == 0 { c } else { c + 1 };
            assert_eq!(encode(mid), even, "tie between 0x{c:02X} and its successor");
            assert_eq!(encode(-mid), 0x80 | even);
            for x in [mid - mid * 1e-12, mid + mid * 1e-12] {
                assert_eq!(encode(x), nearest(x), "{x:e}");
            }
        }
    }

    #[test]
    fn out_of_range_saturates_and_nan_stays_nan() {
        for x in [448.0, 449.0, 464.0, 480.0, 1e6, f64::INFINITY] {
            assert_eq!(encode(x), MAX_CODE, "{x}");
            assert_eq!(encode(-x), 0x80 | MAX_CODE, "{x}");
        }
        assert_eq!(encode(f64::NAN), NAN);
        assert_eq!(encode(-f64::NAN), 0xFF);
        // Below half the smallest subnormal: zero, keeping the sign; exactly half: the even code, zero.
        assert_eq!(encode(MIN_SUBNORMAL / 2.0), 0);
        assert_eq!(encode(-MIN_SUBNORMAL * 0.6), 0x81);
        assert_eq!(encode(-1e-30), 0x80);
    }
}
