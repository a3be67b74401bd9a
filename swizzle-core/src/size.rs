//! The one problem-size type ([`Size`]): what the L2 model ([`crate::l2`]) and the planner ([`crate::plan`])
//! take, and what every gpu-kernels family launches at.

use core::fmt;
use core::str::FromStr;

use crate::l2::{parse_dims, ParseDimsError};

/// A problem size: `m x n` (a transpose: rows x cols; a stencil: `n` alone with `m = 1`) or `m x n x k` (a
/// GEMM: `C (m x n) = A (m x k) * B (k x n)`). Unused extents are 1 (`k` defaults to 1).
///
/// ```
/// use swizzle_core::Size;
/// let s = Size::mnk(16, 4096, 4096);
/// assert_eq!(s.to_string(), "16x4096x4096");
/// assert_eq!(s.flops(), 2 * 16 * 4096 * 4096);
/// assert_eq!(Size::mn(4097, 1023).to_string(), "4097x1023");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Size {
    /// Rows (of a GEMM's A and C).
    pub m: u32,
    /// Columns (of a GEMM's B and C).
    pub n: u32,
    /// A GEMM's reduction extent (1 for the others).
    pub k: u32,
}

impl Size {
    /// `m x n` (`k = 1`).
    pub const fn mn(m: u32, n: u32) -> Size {
        Size { m, n, k: 1 }
    }

    /// `m x n x k`.
    pub const fn mnk(m: u32, n: u32, k: u32) -> Size {
        Size { m, n, k }
    }

    /// A square `n x n` problem (`n x n x n` when `cube`).
    pub const fn square(n: u32, cube: bool) -> Size {
        Size {
            m: n,
            n,
            k: if cube { n } else { 1 },
        }
    }

    /// Floating-point operations of one GEMM of this shape, `2 M N K`.
    pub const fn flops(&self) -> u64 {
        2 * self.m as u64 * self.n as u64 * self.k as u64
    }

    /// `MxNxK` with every extent, `k = 1` included (a GEMM's shape as the L2 model and the planner print it;
    /// [`Display`](fmt::Display) leaves out `k = 1`).
    ///
    /// ```
    /// assert_eq!(swizzle_core::Size::mnk(4, 5, 1).mnk_text(), "4x5x1");
    /// ```
    pub fn mnk_text(&self) -> String {
        format!("{}x{}x{}", self.m, self.n, self.k)
    }

    /// `m * n` (the elements of a GEMM's C, of a transpose's matrix), as `usize`.
    pub const fn mn_len(&self) -> usize {
        self.m as usize * self.n as usize
    }

    /// `m * k` (the elements of a GEMM's A), as `usize`.
    pub const fn mk_len(&self) -> usize {
        self.m as usize * self.k as usize
    }

    /// `n * k` (the elements of a GEMM's B), as `usize`.
    pub const fn nk_len(&self) -> usize {
        self.n as usize * self.k as usize
    }

    /// Serialize as `[m, n, k]` (the JSON the tuning tools write: `#[serde(serialize_with = ...)]`).
    #[cfg(feature = "serde")]
    pub fn serialize_mnk<S: serde::Serializer>(size: &Size, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(size.m, size.n, size.k), s)
    }
}

impl FromStr for Size {
    type Err = ParseDimsError;

    /// `MxNxK`, e.g. `4096x4096x4096`, each side `1..=`[`MAX_DIM`](crate::l2::MAX_DIM) (the one `AxBxC` parser,
    /// [`parse_dims`]).
    ///
    /// ```
    /// use swizzle_core::Size;
    /// assert_eq!("16x4096x8".parse(), Ok(Size::mnk(16, 4096, 8)));
    /// assert!("1x2097152x8".parse::<Size>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Size, ParseDimsError> {
        let [m, n, k] = parse_dims(s, ["M", "N", "K"], "MxNxK (e.g. 4096x4096x4096)")?;
        Ok(Size::mnk(m, n, k))
    }
}

impl fmt::Display for Size {
    /// `4097x1023`, or `4096x4096x4096` when `k > 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.m, self.n)?;
        if self.k > 1 {
            write!(f, "x{}", self.k)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print_and_parse() {
        let s = Size::mnk(16, 4096, 1024);
        assert_eq!(s.flops(), 2 * 16 * 4096 * 1024);
        assert_eq!(
            (s.mk_len(), s.nk_len(), s.mn_len()),
            (16 * 1024, 4096 * 1024, 16 * 4096)
        );
        assert_eq!(Size::mn(3, 5).to_string(), "3x5");
        assert_eq!(Size::mn(3, 5).mnk_text(), "3x5x1");
        assert_eq!("4x5x6".parse(), Ok(Size::mnk(4, 5, 6)));
        assert!("4x5".parse::<Size>().is_err());
        assert!("4x0x6".parse::<Size>().is_err());
    }
}
