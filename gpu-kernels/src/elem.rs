//! Element types the kernels move (swizzle-core's [`Elem`], and the host types that carry them), and the seeded
//! random data the checks use (never zeros).

pub mod e4m3;

/// The host fp16 type (so users need no `half` dependency of their own).
pub use half::f16 as F16;

/// The host FP8 E4M3 type ([`e4m3`]: the codec, round to nearest even, saturating).
pub use e4m3::E4m3;

/// The element type: swizzle-core's, one type across the workspace (name, size, C type, accumulator).
pub use swizzle_core::Elem;

use swizzle_core::random::{splitmix64, STEP};

/// A host element type with a device representation: the one trait every typed buffer of the crate is written
/// against (`CudaSlice<E>`, `Vec<E>`). Values convert through `f64` (exact for every implementing type), so a host
/// reference is written once whatever the element type; [`HostElem::ELEM`] names the type the way the specs and
/// generated headers do.
pub trait HostElem:
    cudarc::driver::DeviceRepr
    + cudarc::driver::ValidAsZeroBits
    + Copy
    + Default
    + Send
    + Sync
    + std::fmt::Debug
    + 'static
{
    const ELEM: Elem;
    /// The value, exactly.
    fn to_f64(self) -> f64;
    /// `v` rounded to this type: to nearest even for floats, toward zero for integers.
    fn from_f64(v: f64) -> Self;
    /// The raw bits, for exact comparison (NaN poison included).
    fn bits(self) -> u32;
}

impl HostElem for f32 {
    const ELEM: Elem = Elem::F32;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

impl HostElem for half::f16 {
    const ELEM: Elem = Elem::F16;
    fn to_f64(self) -> f64 {
        half::f16::to_f64(self)
    }
    fn from_f64(v: f64) -> Self {
        half::f16::from_f64(v)
    }
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
}

impl HostElem for half::bf16 {
    const ELEM: Elem = Elem::BF16;
    fn to_f64(self) -> f64 {
        half::bf16::to_f64(self)
    }
    fn from_f64(v: f64) -> Self {
        half::bf16::from_f64(v)
    }
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
}

impl HostElem for i32 {
    const ELEM: Elem = Elem::I32;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v as i32
    }
    fn bits(self) -> u32 {
        self as u32
    }
}

/// The element type's name as the kernel tables spell it: `fp16`, `fp32`, `fp64` for the IEEE floats (`bf16`,
/// `i32`, ... as swizzle-core names them). Spec names, table rows and the tuning tools' `--dtypes` use it.
///
/// ```
/// use gpu_kernels::elem::{table_name, Elem};
/// assert_eq!(table_name(Elem::F16), "fp16");
/// assert_eq!(table_name(Elem::BF16), "bf16");
/// assert_eq!(table_name(Elem::I32), "i32");
/// ```
pub const fn table_name(e: Elem) -> &'static str {
    match e.name().as_bytes() {
        b"f16" => "fp16",
        b"f32" => "fp32",
        b"f64" => "fp64",
        _ => e.name(),
    }
}

/// Unit roundoff of a float type (the relative error of one rounding to nearest): `2^-11` for fp16, `2^-8` for
/// bf16, `2^-24` for fp32, `2^-53` for fp64, `2^-4` for e4m3 (normal range); `None` for the other types.
pub const fn unit_roundoff(e: Elem) -> Option<f64> {
    match e.name().as_bytes() {
        b"f16" => Some(1.0 / 2048.0),
        b"bf16" => Some(1.0 / 256.0),
        b"f32" => Some(1.0 / 16_777_216.0),
        b"f64" => Some(1.0 / 9_007_199_254_740_992.0),
        b"e4m3" => Some(1.0 / 16.0),
        _ => None,
    }
}

/// `Ok(())` when `elem` is one of `allowed`, else one line: `{what}: {elem} is not supported (expected one of
/// ...)`. How a family that runs only some element types refuses the others.
pub fn check_supported(what: &str, elem: Elem, allowed: &[Elem]) -> crate::Result<()> {
    if allowed.contains(&elem) {
        Ok(())
    } else {
        Err(unsupported(what, elem, allowed))
    }
}

/// The error of [`check_supported`].
pub fn unsupported(what: &str, elem: Elem, allowed: &[Elem]) -> crate::Error {
    let names: Vec<&str> = allowed.iter().map(|e| e.name()).collect();
    crate::Error::Invalid(format!(
        "{what}: element type {elem} is not supported (expected {})",
        names.join(" or ")
    ))
}

/// `n` seeded pseudo-random 64-bit words ([`swizzle_core::random`]'s SplitMix64), the same on every machine: the one generator behind every
/// family's random inputs and sampled positions ([`unit_values`], [`random`], [`indices`], the frame's
/// `HostBuf::random`).
pub fn words(n: usize, seed: u64) -> impl Iterator<Item = u64> {
    words_from(0, n, seed)
}

/// Words `start..start + n` of [`words`]`(.., seed)`, computed without the first `start` (SplitMix64's state
/// after `i` steps is its starting state plus `i` times its increment): the generator split over threads.
///
/// ```
/// use gpu_kernels::elem::{words, words_from};
/// let all: Vec<u64> = words(10, 7).collect();
/// assert_eq!(words_from(4, 6, 7).collect::<Vec<_>>(), all[4..]);
/// ```
pub fn words_from(start: usize, n: usize, seed: u64) -> impl Iterator<Item = u64> {
    let mut state = (seed ^ STEP).wrapping_add((start as u64).wrapping_mul(STEP));
    (0..n).map(move |_| {
        let z = splitmix64(state);
        state = state.wrapping_add(STEP);
        z
    })
}

/// `n` seeded pseudo-random values in `[-1, 1)` ([`words`]): every value is a 24-bit fraction, so it is exact in
/// f32 as in f64.
pub fn unit_values(n: usize, seed: u64) -> impl Iterator<Item = f64> {
    unit_values_from(0, n, seed)
}

/// Values `start..start + n` of [`unit_values`]`(.., seed)` ([`words_from`]).
pub fn unit_values_from(start: usize, n: usize, seed: u64) -> impl Iterator<Item = f64> {
    words_from(start, n, seed).map(|z| (z >> 40) as f64 / (1u64 << 23) as f64 - 1.0)
}

/// `n` seeded pseudo-random values in `(-1, 1)` that are never zero: [`unit_values`] moved up by half a step
/// (`2^-24`), so every value is an odd multiple of `2^-24`.
pub fn nonzero_unit_values(n: usize, seed: u64) -> impl Iterator<Item = f64> {
    unit_values(n, seed).map(|u| u + 1.0 / (1u64 << 24) as f64)
}

/// `n` seeded pseudo-random indices in `0..below` ([`words`]; `below > 0`).
pub fn indices(n: usize, below: u32, seed: u64) -> impl Iterator<Item = u32> {
    assert!(below > 0, "indices: empty range");
    words(n, seed).map(move |z| ((z >> 32) % below as u64) as u32)
}

/// `n` seeded pseudo-random values in `[-1, 1)` ([`unit_values`]), rounded to `E` (floats: exact in fp32).
pub fn random<E: HostElem>(n: usize, seed: u64) -> Vec<E> {
    unit_values(n, seed).map(E::from_f64).collect()
}
