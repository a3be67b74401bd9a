//! The constraints on a swizzle spec, stated once.
//!
//! Used by `Swizzle::new` and `Swizzle::try_new` at compile and run time, and by `swizzle-macros` while it
//! expands `swizzle!`, so the macro reports the very same rule violations with a span on the offending token.
//! Keep it dependency-free and `const`.

/// Largest `B + M + |S|`: every mask (and the highest bit the swizzle touches) lies in bits `0..32`, so it fits
/// in a `u32`. CuTe has no such bound; we state ours.
pub const MAX_SPAN_BITS: u32 = 32;

/// Why a `(B, M, S)` triple is not a legal swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleError {
    /// `|S| < B`: the YYY source field and the ZZZ target field would overlap.
    ShiftSmallerThanBits { bits: u32, shift: i32 },
    /// `B + M + |S| > 32`: a mask would not fit in 32 bits.
    MaskOutOfRange { bits: u32, base: u32, shift: i32 },
}

impl RuleError {
    /// One-line reason, the same text everywhere (macro diagnostics, CLI, `Display`).
    pub const fn message(&self) -> &'static str {
        match self {
            RuleError::ShiftSmallerThanBits { .. } => {
                "|S| must be >= B: the shifted field would overlap the bits it is XORed into"
            }
            RuleError::MaskOutOfRange { .. } => {
                "B + M + |S| must be <= 32 so every mask fits in a u32"
            }
        }
    }
}

/// Check a `(bits, base, shift)` triple. `bits == 0` is the identity and always legal as long as it fits.
pub const fn validate(bits: u32, base: u32, shift: i32) -> Result<(), RuleError> {
    let abs_s = shift.unsigned_abs();
    if abs_s < bits {
        return Err(RuleError::ShiftSmallerThanBits { bits, shift });
    }
    // Saturating: huge inputs must not overflow while being rejected.
    let span = bits.saturating_add(base).saturating_add(abs_s);
    if span > MAX_SPAN_BITS {
        return Err(RuleError::MaskOutOfRange { bits, base, shift });
    }
    Ok(())
}

/// `"<message> (B=.., S=..)"`: the text `Swizzle::try_new` errors, the CLI and the `swizzle!` macro all print.
impl core::fmt::Display for RuleError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            RuleError::ShiftSmallerThanBits { bits, shift } => {
                write!(f, "{} (B={bits}, S={shift})", self.message())
            }
            RuleError::MaskOutOfRange { bits, base, shift } => {
                write!(f, "{} (B={bits}, M={base}, S={shift})", self.message())
            }
        }
    }
}

impl core::error::Error for RuleError {}
