//! Element types the kernels move, and the seeded random data the checks use (never zeros).

/// The host fp16 type (so users need no `half` dependency of their own).
pub use half::f16 as F16;

/// The element type of a kernel variant, as the CUDA side spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Elem {
    F32,
    F16,
}

impl Elem {
    /// The same element type in swizzle-core's units (its size, name and layout math live there).
    pub const fn core(self) -> swizzle_core::Elem {
        match self {
            Elem::F32 => swizzle_core::Elem::F32,
            Elem::F16 => swizzle_core::Elem::F16,
        }
    }

    /// Size in bytes.
    pub const fn bytes(self) -> u32 {
        self.core().bytes()
    }

    /// The CUDA type the kernels are compiled with (`-DELEM=...`). fp16 travels as its 16 bits: a transpose
    /// never does arithmetic, and this needs no `cuda_fp16.h` (NVRTC runs without toolkit headers).
    pub const fn c_type(self) -> &'static str {
        match self {
            Elem::F32 => "float",
            Elem::F16 => "unsigned short",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Elem::F32 => "fp32",
            Elem::F16 => "fp16",
        }
    }
}

impl std::fmt::Display for Elem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A host element type with a device representation.
pub trait Element:
    cudarc::driver::DeviceRepr
    + cudarc::driver::ValidAsZeroBits
    + Copy
    + Default
    + Send
    + Sync
    + 'static
{
    const ELEM: Elem;
    /// A finite, usually non-zero value from a uniform draw in `[-1, 1)`.
    fn from_unit(u: f32) -> Self;
    /// The raw bits, for exact comparison (NaN poison included).
    fn bits(self) -> u32;
}

impl Element for f32 {
    const ELEM: Elem = Elem::F32;
    fn from_unit(u: f32) -> Self {
        u
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

impl Element for half::f16 {
    const ELEM: Elem = Elem::F16;
    fn from_unit(u: f32) -> Self {
        half::f16::from_f32(u)
    }
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
}

/// `n` seeded pseudo-random values in `[-1, 1)` (SplitMix64), the same on every machine.
pub fn random<E: Element>(n: usize, seed: u64) -> Vec<E> {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            E::from_unit((z >> 40) as f32 / (1u64 << 23) as f32 - 1.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_is_seeded_finite_and_not_constant() {
        let a: Vec<f32> = random(1000, 7);
        assert_eq!(a, random::<f32>(1000, 7));
        assert_ne!(a, random::<f32>(1000, 8));
        assert!(a.iter().all(|v| v.is_finite() && (-1.0..1.0).contains(v)));
        assert!(a.iter().filter(|v| **v == 0.0).count() < 5);
        let h: Vec<half::f16> = random(1000, 7);
        assert!(h.iter().all(|v| v.is_finite()));
    }
}
