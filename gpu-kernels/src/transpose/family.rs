//! The transpose family on the frame: its spec (a kernel variant and its element type), launch, buffers, host
//! reference, accesses, measure (bytes) and peer (a D2D copy of the matrix).

use super::Transpose;
use crate::frame::{
    Arg, Bench, Buffer, Family, HostBuf, Identity, Launch, Parts, Profile, Size, SpecAccess,
};
use crate::runtime::{Result, Source};
use swizzle_core::Elem;

/// One transpose variant on one element type: the spec the frame iterates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub kernel: Transpose,
    pub elem: Elem,
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kernel {
            Transpose::Smem(s) => write!(f, "{s}"),
            Transpose::Classic(..) => write!(f, "{} {}", self.kernel, self.elem),
        }
    }
}

crate::family! {
    /// The transpose family (registered in [`crate::registry::FAMILIES`]).
    pub static TRANSPOSE: TransposeFamily = Identity::matrix("transpose", "matrix transpose: the transpose article's kernels and the shared-memory tiled transposes");
}

/// The element types the family ships variants for.
pub const ELEMS: [Elem; 2] = [Elem::F32, Elem::F16];

/// The block shapes of the article's tables: the classic kernels the family ships.
pub const ARTICLE_BLOCKS: [(u32, u32); 4] = [(8, 32), (16, 16), (32, 8), (32, 32)];

impl Family for TransposeFamily {
    type Spec = Variant;

    /// Per element type: the 16-byte copy, the article's kernels at the article's block shapes, every
    /// shared-memory spec (what `swz bench transpose` measured before the frame, in the same order).
    fn specs(&self) -> Vec<Variant> {
        ELEMS
            .iter()
            .flat_map(|&elem| {
                let classics = ARTICLE_BLOCKS.iter().flat_map(|b| Transpose::classics(*b));
                let smem = Transpose::all_for(elem)
                    .into_iter()
                    .filter(|t| matches!(t, Transpose::Smem(_)));
                std::iter::once(Transpose::COPY_VEC16)
                    .chain(classics)
                    .chain(smem)
                    .map(move |kernel| Variant { kernel, elem })
            })
            .collect()
    }

    fn spec_name(&self, v: &Variant) -> String {
        v.kernel.name()
    }

    fn elem(&self, v: &Variant) -> Elem {
        v.elem
    }

    fn header(&self, v: &Variant) -> swizzle_core::cuda::Header {
        v.kernel.header(v.elem)
    }

    fn compile_unit(&self, v: &Variant) -> (Source, Vec<String>) {
        v.kernel.source(v.elem)
    }

    fn entry(&self, v: &Variant) -> &'static str {
        match v.kernel {
            Transpose::Classic(s, _) => s.cuda_name(),
            Transpose::Smem(_) => "transposeSmem",
        }
    }

    fn smem_bytes(&self, v: &Variant) -> u32 {
        match v.kernel {
            Transpose::Smem(s) => s.smem_bytes(),
            Transpose::Classic(..) => 0,
        }
    }

    /// `[in (rows x cols), out (cols x rows)]`; `size` is `rows x cols`.
    fn buffers(&self, v: &Variant, size: Size) -> Vec<Buffer> {
        let n = size.m as usize * size.n as usize;
        vec![
            Buffer::input("in", v.elem, n),
            Buffer::output("out", v.elem, n),
        ]
    }

    /// `kernel(out, in, nx = cols, ny = rows)`.
    fn launch(&self, v: &Variant, size: Size) -> Result<Launch> {
        let config = v.kernel.launch_config(v.elem, size.m, size.n)?;
        Ok(Launch {
            config,
            args: vec![Arg::Buf(1), Arg::Buf(0), Arg::U32(size.n), Arg::U32(size.m)],
        })
    }

    /// The transpose of the `rows x cols` input (the input itself for the copy bounds), element bits untouched.
    fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        let input = &inputs[0];
        if v.kernel.is_copy() {
            return vec![input.clone()];
        }
        let (rows, cols) = (size.m as usize, size.n as usize);
        let mut out = HostBuf::zeros(v.elem, rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                out.copy_elem(c * rows + r, input, r * cols + c);
            }
        }
        vec![out]
    }

    /// The element type, and whether the kernel copies (a bound) or transposes.
    fn reference_class(&self, v: &Variant) -> Option<String> {
        let what = if v.kernel.is_copy() {
            "copy"
        } else {
            "transpose"
        };
        Some(format!("{what} {}", v.elem))
    }

    fn accesses(&self, v: &Variant) -> Vec<SpecAccess> {
        match v.kernel {
            Transpose::Smem(s) => s.accesses().to_vec(),
            Transpose::Classic(..) => Vec::new(),
        }
    }

    /// Odd, even and ragged: `97x131`, `1000x1000`, `4097x1023`.
    fn verify_sizes(&self) -> Vec<Size> {
        vec![
            Size::mn(97, 131),
            Size::mn(1000, 1000),
            Size::mn(4097, 1023),
        ]
    }
    fn parts(&self) -> Parts<'_, Variant> {
        Parts::none().with_bench(self).with_profile(self)
    }
}

/// Measured against a D2D copy of the matrix, moving the same bytes (read + write): the default measure and peer.
impl Bench for TransposeFamily {
    fn block_label(&self, v: &Variant) -> String {
        let (bx, by) = v.kernel.block();
        format!("({bx},{by})")
    }
    /// The article's copies: what a transpose could reach, not a transpose.
    fn is_bound(&self, v: &Variant) -> bool {
        v.kernel.is_copy()
    }
    fn bench_sizes(&self) -> Vec<Size> {
        [2048, 8192, 16384].map(|n| Size::mn(n, n)).to_vec()
    }
    /// 8192^2: 2048^2 (16 MB of f32) fits in the L2.
    fn report_size(&self) -> Option<Size> {
        Some(Size::mn(8192, 8192))
    }
}

impl Profile<Variant> for TransposeFamily {
    fn smem_only_options(&self, v: &Variant) -> Vec<String> {
        match v.kernel {
            Transpose::Smem(_) => vec!["-DSMEM_ONLY=1".to_string()],
            Transpose::Classic(..) => Vec::new(),
        }
    }
}
