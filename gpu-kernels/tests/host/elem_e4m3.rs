use gpu_kernels::elem::e4m3::*;
use gpu_kernels::{Elem, HostElem};

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
    let words: Vec<u64> = gpu_kernels::elem::words(30_000, 0xE4).collect();
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
    assert_eq!(E4m3::from_f64(-2.0).to_f64(), -2.0);
    assert_eq!(<E4m3 as HostElem>::ELEM, Elem::E4M3);
    assert_eq!(Elem::E4M3.c_type(), "__nv_fp8_e4m3");
    assert_eq!(Elem::E4M3.c_include(), Some("cuda_fp8.h"));
    assert_eq!(Elem::E4M3.bytes(), 1);
}
