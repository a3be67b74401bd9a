//! FP8 scaling modes: how a GEMM's fp32 scales multiply its e4m3 inputs, and how many there are. The planner
//! counts their bytes; gpu-kernels' `fp8` module takes them as typed arguments and checks their buffers.
//!
//! ```text
//!   tensor:  C[i][j] = sa    * sb    * sum_k a[i][k] b[j][k]                      sa, sb: 1 value each
//!   row:     C[i][j] = sa[i] * sb[j] * sum_k a[i][k] b[j][k]                      sa: M values, sb: N values
//!   block:   C[i][j] = sum_kb sa[kb][i] * sb[j/128][kb] * sum_{k in kb} a[i][k] b[j][k]
//!                                                sa: ceil(K/128) x M, sb: ceil(N/128) x ceil(K/128)
//! ```
//!
//! ```
//! use swizzle_core::scale::ScaleMode;
//! assert_eq!(ScaleMode::Block.lens(3, 300, 272), (3 * 3, 3 * 3));
//! assert_eq!(ScaleMode::Row.bytes(16, 4096, 4096), 4 * (16 + 4096));
//! assert_eq!(ScaleMode::from_name("row"), Some(ScaleMode::Row));
//! ```

/// The K extent of one scale block, and the N extent of one of B's blocks.
pub const BLOCK: u32 = 128;

/// How a `bn`-wide N tile meets B's 128-wide scale blocks: `(step, offsets, segments)`. Tile `x` starts at column
/// `x * bn`, a multiple of `step` = gcd(`bn`, 128) into a B block (one of `offsets` = 128 / `step` offsets), so
/// each of the tile's `segments` = `bn / step` runs of `step` columns lies in one B block and takes its scale.
///
/// ```
/// use swizzle_core::scale::b_segments;
/// assert_eq!(b_segments(128), (128, 1, 1));
/// assert_eq!(b_segments(192), (64, 2, 3)); // a 192-wide tile starts 0 or 64 columns into a block
/// assert_eq!(b_segments(160), (32, 4, 5));
/// ```
pub const fn b_segments(bn: u32) -> (u32, u32, u32) {
    let (mut a, mut b) = (bn, BLOCK);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    (a, BLOCK / a, bn / a)
}

/// Bytes of the shared-memory slot a block-scaled GEMM stages one K block's scales of a `bm x bn` tile in: an
/// fp32 scale per row of A, then one per B segment ([`b_segments`]), rounded up to 16 bytes.
///
/// ```
/// assert_eq!(swizzle_core::scale::slot_bytes(128, 192), 528); // 4 * (128 + 3), rounded up
/// assert_eq!(swizzle_core::scale::slot_bytes(64, 128), 272); // 4 * (64 + 1), rounded up
/// ```
pub const fn slot_bytes(bm: u32, bn: u32) -> u32 {
    (4 * (bm + b_segments(bn).2)).div_ceil(16) * 16
}

/// Which scaling an FP8 GEMM applies (the CLI's `--scale`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleMode {
    /// One fp32 scale for A and one for B.
    Tensor,
    /// One fp32 scale per row of A (per token, M) and per row of B (per output channel, N), in the epilogue.
    Row,
    /// A per 1 x 128 (row, K block), B per 128 x 128 (N block, K block); partial sums promoted to fp32 per K block.
    Block,
}

impl ScaleMode {
    /// Every mode, in the order the CLI lists them.
    pub const ALL: [ScaleMode; 3] = [ScaleMode::Tensor, ScaleMode::Row, ScaleMode::Block];

    /// `tensor`, `row` or `block`.
    pub const fn name(self) -> &'static str {
        match self {
            ScaleMode::Tensor => "tensor",
            ScaleMode::Row => "row",
            ScaleMode::Block => "block",
        }
    }

    /// The mode called `s`.
    pub fn from_name(s: &str) -> Option<ScaleMode> {
        ScaleMode::ALL.into_iter().find(|m| m.name() == s.trim())
    }

    /// How many fp32 scales A and B take for an `m x n x k` GEMM: `(A's, B's)`.
    pub const fn lens(self, m: u32, n: u32, k: u32) -> (usize, usize) {
        let (m, n) = (m as usize, n as usize);
        let kb = k.div_ceil(BLOCK) as usize;
        match self {
            ScaleMode::Tensor => (1, 1),
            ScaleMode::Row => (m, n),
            ScaleMode::Block => (kb * m, n.div_ceil(BLOCK as usize) * kb),
        }
    }

    /// What one of A's (`b` false) or B's scales covers, in words (for messages): `one per row of A, M`, ...
    pub const fn covers(self, b: bool) -> &'static str {
        match (self, b) {
            (ScaleMode::Tensor, _) => "one for the whole tensor",
            (ScaleMode::Row, false) => "one per row of A, M",
            (ScaleMode::Row, true) => "one per row of B, N",
            (ScaleMode::Block, false) => "one per row of A and K block of 128",
            (ScaleMode::Block, true) => "one per 128 x 128 block of B",
        }
    }

    /// The scale bytes a GEMM reads besides its operands: both scale vectors once, in fp32.
    pub const fn bytes(self, m: u32, n: u32, k: u32) -> u64 {
        let (a, b) = self.lens(m, n, k);
        4 * (a as u64 + b as u64)
    }
}

display_by_name!(ScaleMode);
