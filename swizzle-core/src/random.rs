//! SplitMix64, the workspace's one pseudo-random generator: the L2 model's pool hash and every gpu-kernels
//! family's seeded inputs draw from it, the same on every machine.

/// The generator's step (the golden ratio in 64 bits): state `i + 1` is state `i` plus this.
pub const STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// The output for the state before `state`'s step: SplitMix64's finaliser of `state + STEP`. A stream seeded at
/// `s` is `splitmix64(s)`, `splitmix64(s + STEP)`, ...; one call is a good 64-bit hash of `state`.
///
/// ```
/// use swizzle_core::random::{splitmix64, STEP};
/// // The reference stream for seed 0 (Vigna's splitmix64.c).
/// assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
/// assert_eq!(splitmix64(STEP), 0x6E78_9E6A_A1B9_65F4);
/// ```
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(STEP);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
