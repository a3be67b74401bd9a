//! The three ways an FP8 GEMM's fp32 scales multiply its e4m3 inputs, as typed arguments, and the checks every
//! FP8 launch (ours or cuBLASLt's) makes before it queues anything.
//!
//! What each mode computes, and how many scales it takes, is [`swizzle_core::scale`]'s definition.
//!
//! Per-tensor and per-row scales are applied once, in the epilogue, to the fp32 sum. Block scales change inside
//! the K loop, so each 128-wide K block's partial sum is scaled and promoted into a separate fp32 accumulator.
//!
//! **Block layouts.** A's scales are K-block-major (`sa[kb * M + i]`: one K block's M scales contiguous, the
//! layout a tile loads with one copy, as DeepGEMM takes them); B's are row-major over (N block, K block)
//! (`sb[nb * ceil(K/128) + kb]`, the `weight_scale_inv` layout of DeepSeek-style checkpoints). A last partial K
//! or N block has a scale of its own.
//!
//! ```
//! use gpu_kernels::fp8::{scale::lens, ScaleMode, Scales};
//! use gpu_kernels::Size;
//! let size = Size::mnk(3, 300, 272);
//! assert_eq!(lens(ScaleMode::Block, size), (3 * 3, 3 * 3)); // ceil(272/128) = 3, ceil(300/128) = 3
//! let s = Scales::Row { a: vec![1.0f32; 3], b: vec![0.5f32; 299] };
//! assert_eq!(
//!     s.validate(size).unwrap_err().to_string(),
//!     "invalid argument: per-row scaling of 3x300x272: B's scales hold 299 values, it needs 300 (one per row of B, N)"
//! );
//! ```

use crate::runtime::{Error, Result};
use crate::Size;

pub use swizzle_core::scale::{ScaleMode, BLOCK};

/// How many fp32 scales A and B take for `size` in `mode`: `(A's, B's)` ([`ScaleMode::lens`]).
pub const fn lens(mode: ScaleMode, size: Size) -> (usize, usize) {
    mode.lens(size.m, size.n, size.k)
}

/// Something holding fp32 scales: a host slice or vector, or a device buffer.
pub trait ScaleBuf {
    fn scale_len(&self) -> usize;
}

impl ScaleBuf for [f32] {
    fn scale_len(&self) -> usize {
        self.len()
    }
}
impl ScaleBuf for Vec<f32> {
    fn scale_len(&self) -> usize {
        self.len()
    }
}
impl ScaleBuf for cudarc::driver::CudaSlice<f32> {
    fn scale_len(&self) -> usize {
        self.len()
    }
}
impl<T: ScaleBuf + ?Sized> ScaleBuf for &T {
    fn scale_len(&self) -> usize {
        (**self).scale_len()
    }
}

/// A's and B's scales in one of the three modes: the typed argument of an FP8 GEMM. `S` is where they live
/// (`Vec<f32>` or `&[f32]` on the host, `CudaSlice<f32>` on the device).
#[derive(Clone, Debug, PartialEq)]
pub enum Scales<S> {
    Tensor { a: S, b: S },
    Row { a: S, b: S },
    Block { a: S, b: S },
}

impl<S> Scales<S> {
    /// `mode`'s scales from A's and B's buffers.
    pub fn new(mode: ScaleMode, a: S, b: S) -> Scales<S> {
        match mode {
            ScaleMode::Tensor => Scales::Tensor { a, b },
            ScaleMode::Row => Scales::Row { a, b },
            ScaleMode::Block => Scales::Block { a, b },
        }
    }

    pub fn mode(&self) -> ScaleMode {
        match self {
            Scales::Tensor { .. } => ScaleMode::Tensor,
            Scales::Row { .. } => ScaleMode::Row,
            Scales::Block { .. } => ScaleMode::Block,
        }
    }

    /// (A's scales, B's scales).
    pub fn parts(&self) -> (&S, &S) {
        match self {
            Scales::Tensor { a, b } | Scales::Row { a, b } | Scales::Block { a, b } => (a, b),
        }
    }

    /// The same scales through `f` (say, host vectors to device buffers).
    pub fn map<T>(&self, mut f: impl FnMut(&S) -> Result<T>) -> Result<Scales<T>> {
        let (a, b) = self.parts();
        Ok(Scales::new(self.mode(), f(a)?, f(b)?))
    }
}

impl<S: ScaleBuf> Scales<S> {
    /// `Ok` when the problem is one an FP8 GEMM takes ([`check_dims`]) and each scale buffer holds exactly what
    /// the mode needs for it; else one line saying which buffer and what it should hold.
    pub fn validate(&self, size: Size) -> Result<()> {
        check_dims(size)?;
        let mode = self.mode();
        let (want_a, want_b) = lens(mode, size);
        let (a, b) = self.parts();
        for (who, got, want, is_b) in [
            ("A", a.scale_len(), want_a, false),
            ("B", b.scale_len(), want_b, true),
        ] {
            if got != want {
                return Err(Error::Invalid(format!(
                    "per-{mode} scaling of {size}: {who}'s scales hold {got} values, it needs {want} ({})",
                    mode.covers(is_b)
                )));
            }
        }
        Ok(())
    }
}

/// Problem sizes an FP8 GEMM takes: M, N, K non-zero, K a multiple of 16 (the rows of A and B, K bytes each, must
/// be 16-byte aligned for TMA and for cuBLASLt).
pub fn check_dims(size: Size) -> Result<()> {
    let Size { m, n, k } = size;
    if m == 0 || n == 0 || k == 0 {
        return Err(Error::Invalid(format!("empty GEMM {size}")));
    }
    if !k.is_multiple_of(16) {
        return Err(Error::Invalid(format!(
            "K = {k} is not a multiple of 16: the rows of A and B ({k} e4m3 bytes) must be 16-byte aligned; pad K \
             with zeros"
        )));
    }
    let _ = (m, n);
    Ok(())
}
