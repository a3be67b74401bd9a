//! The crate's one problem-size type ([`Size`]): what every family launches at, what the cuBLAS peer, the tuning
//! tools and `swz bench --shapes` take, and the one place GEMM shapes convert to swizzle-core's model inputs.

/// A problem size: `m x n` (a transpose: rows x cols; a stencil: `n` alone with `m = 1`) or `m x n x k` (a
/// GEMM: `C (m x n) = A (m x k) * B (k x n)`). Unused extents are 1 (`k` defaults to 1). The crate's one
/// problem-size type: every family, the cuBLAS peer, the tuning tools and `swz bench --shapes` take it; GEMM
/// shapes convert to and from swizzle-core's model inputs ([`swizzle_core::l2::Gemm`], [`Size::plan`]) here and
/// nowhere else.
///
/// ```
/// use gpu_kernels::frame::Size;
/// let s = Size::mnk(16, 4096, 4096);
/// assert_eq!(s.to_string(), "16x4096x4096");
/// assert_eq!(s.flops(), 2 * 16 * 4096 * 4096);
/// assert_eq!(Size::mn(4097, 1023).to_string(), "4097x1023");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Size {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

impl Size {
    pub const fn mn(m: u32, n: u32) -> Size {
        Size { m, n, k: 1 }
    }

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

    /// The GEMM shape, as swizzle-core's L2 model takes it (it prints `MxNxK` even when `k = 1`).
    pub const fn gemm(&self) -> swizzle_core::l2::Gemm {
        swizzle_core::l2::Gemm::new(self.m, self.n, self.k)
    }

    /// The GEMM problem in `dtype`, as swizzle-core's planner takes it.
    pub const fn plan(&self, dtype: swizzle_core::plan::Dtype) -> swizzle_core::plan::Problem {
        swizzle_core::plan::Problem::new(self.m, self.n, self.k, dtype)
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
    pub fn serialize_mnk<S: serde::Serializer>(
        size: &Size,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(size.m, size.n, size.k), s)
    }
}

impl From<swizzle_core::l2::Gemm> for Size {
    fn from(g: swizzle_core::l2::Gemm) -> Size {
        Size::mnk(g.m, g.n, g.k)
    }
}

impl From<Size> for swizzle_core::l2::Gemm {
    fn from(s: Size) -> swizzle_core::l2::Gemm {
        s.gemm()
    }
}

impl std::fmt::Display for Size {
    /// `4097x1023`, or `4096x4096x4096` when `k > 1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
    fn sizes_convert_to_and_from_the_l2_models_gemm() {
        for (m, n, k) in [(1, 1, 2), (4097, 1023, 129), (8192, 4096, 64)] {
            let s = Size::mnk(m, n, k);
            let g = swizzle_core::l2::Gemm::from(s);
            assert_eq!((g.m, g.n, g.k), (m, n, k));
            assert_eq!(Size::from(g), s);
            assert_eq!(s.flops(), g.flops());
            assert_eq!(s.to_string(), g.to_string());
        }
        assert_eq!(Size::mn(3, 5).to_string(), "3x5");
    }

    #[test]
    fn a_gemm_shape_gives_the_planners_problem_and_its_operand_lengths() {
        let s = Size::mnk(16, 4096, 1024);
        let p = s.plan(swizzle_core::plan::Dtype::F16);
        assert_eq!((p.m, p.n, p.k), (16, 4096, 1024));
        assert_eq!(
            (s.mk_len(), s.nk_len(), s.mn_len()),
            (16 * 1024, 4096 * 1024, 16 * 4096)
        );
        assert_eq!(
            serde_json::to_string(&Size::mnk(3, 5, 8)).unwrap(),
            r#"{"m":3,"n":5,"k":8}"#
        );
        let mut json = serde_json::Serializer::new(Vec::new());
        Size::serialize_mnk(&Size::mnk(3, 5, 8), &mut json).unwrap();
        assert_eq!(json.into_inner(), b"[3,5,8]");
    }
}
