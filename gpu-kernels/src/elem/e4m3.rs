//! FP8 E4M3 on the host: the host type [`E4m3`] that carries `Elem::E4M3` (`__nv_fp8_e4m3`) buffers, and
//! swizzle-core's value codec ([`swizzle_core::e4m3`]: exact decoding, round-to-nearest-even encoding that
//! saturates to ±448, the OCP "fn" format of `__nv_fp8_e4m3`, cuBLASLt and torch's `float8_e4m3fn`).
//!
//! ```
//! use gpu_kernels::elem::e4m3::{decode, encode, E4m3};
//! assert_eq!(encode(1.0), 0x38);
//! assert_eq!(E4m3::from_f64(1000.0), E4m3(0x7E)); // saturates
//! assert_eq!(decode(0x7E), 448.0);
//! ```

pub use swizzle_core::e4m3::{decode, encode, MAX, MAX_CODE, MIN_NORMAL, MIN_SUBNORMAL, NAN};

use super::{Elem, HostElem};

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
