//! The GEMM as a registered kernel family: `swz bench gemm`, `swz report` and the frame's generic verification
//! run the default spec, its group-m 16 twin (the order chosen for large problems) and its baselines (unswizzled
//! and padded smem, identity block order), both B layouts, fp16 and bf16 with an output of the input type, through
//! the same [`Variant`]s `swz tune gemm` times.
//!
//! The kernel's header is [`super::header`] (its `Spec` with the `SmemA/B/C` tiles, emitted by swizzle-core from
//! the very [`swizzle_core::Smem`] values the bank checks read): [`Family::header`] is the header the kernel
//! compiles.
//!
//! Sizes keep N and K multiples of 8 (tight leading dimensions must keep 16-byte rows; a problem that does not is
//! refused before launch, see [`Problem::validate`]) and are ragged against every tile (127 < 128 rows, 264 =
//! 256 + 8 columns, K = 72 not a multiple of 32). The peer is cuBLAS `gemmEx` on row-major `A·B` (the `Kn`
//! layout); `swz tune gemm bench` measures the like-for-like `Nk` call.

use super::spec::{self, BLayout, GemmSpec};
use super::{eps, OutWidth, Problem, Variant, INPUTS};
use crate::frame::{
    Arg, Bench, Buffer, CeilingProbe, Family, HostBuf, Identity, Launch, Parts, Size, SpecAccess,
    Tolerance,
};
use crate::runtime::{Result, Source};
use swizzle_core::cuda::Header;
use swizzle_core::Elem;

/// The specs of the family's tables: the default (group-m 8), the order [`spec::for_problem`] picks when A and B
/// exceed L2 (group-m 16), the default's smem baselines and the identity order.
pub const FAMILY_SPECS: [GemmSpec; 5] = [
    spec::DEFAULT,
    spec::ORDER_GM16,
    spec::UNSWIZZLED,
    spec::PADDED,
    spec::ORDER_IDENTITY,
];

crate::family! {
    /// The mma.sync GEMM family (registered in [`crate::registry::FAMILIES`]).
    pub static GEMM: GemmFamily = Identity::gemm("gemm", "tensor-core GEMM: mma.sync.m16n8k16 + ldmatrix + cp.async ring, swizzled smem, group-m block order");
}

fn problem(v: &Variant, size: Size) -> Problem {
    Problem::new(size, v.b)
}

/// `sum a[i] * b[i]` in f64 over eight running sums (products of 16-bit values are exact in f64; the order of
/// the additions moves the sum by a few f64 ulps, far under the comparison's tolerance), which the compiler
/// keeps in vector registers: the reference of a 1000x512x1000 problem is a fraction of a second.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f64>() + tail
}

impl Family for GemmFamily {
    type Spec = Variant;

    fn specs(&self) -> Vec<Variant> {
        let mut v = Vec::new();
        for input in INPUTS {
            for b in BLayout::BOTH {
                for s in FAMILY_SPECS {
                    v.push(Variant::new(s, b, input, input));
                }
            }
        }
        v
    }

    fn spec_name(&self, v: &Variant) -> String {
        format!("{} {}", v.spec.name, v.b.name())
    }

    fn elem(&self, v: &Variant) -> Elem {
        v.input
    }

    fn header(&self, v: &Variant) -> Header {
        super::header(&v.spec, v.b, v.input, v.out)
    }

    fn compile_unit(&self, v: &Variant) -> (Source, Vec<String>) {
        (v.source(), Vec::new())
    }

    fn entry(&self, _v: &Variant) -> &'static str {
        "gemm"
    }

    fn smem_bytes(&self, v: &Variant) -> u32 {
        v.smem_bytes()
    }

    fn buffers(&self, v: &Variant, size: Size) -> Vec<Buffer> {
        let p = problem(v, size);
        vec![
            Buffer::input("A", v.input, p.a_len()),
            Buffer::input("B", v.input, p.b_len()),
            Buffer::output("C", v.out, p.c_len()),
        ]
    }

    fn launch(&self, v: &Variant, size: Size) -> Result<Launch> {
        let p = problem(v, size);
        p.validate(v.out)?;
        let i = |x: u32| Arg::I32(x as i32);
        Ok(Launch {
            config: v.launch_config(&p)?,
            args: vec![
                Arg::Buf(2),
                Arg::Buf(0),
                Arg::Buf(1),
                i(p.size.m),
                i(p.size.n),
                i(p.size.k),
                i(p.lda),
                i(p.ldb),
                i(p.ldc),
                Arg::F32(1.0), // alpha
                Arg::F32(0.0), // beta: C is not read
            ],
        })
    }

    /// `C = A·B` in f64 from the rounded inputs, rounded to the output type.
    fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        let p = problem(v, size);
        let (a, b) = (inputs[0].to_f64(), inputs[1].to_f64());
        let (m, n, k) = (p.size.m as usize, p.size.n as usize, p.size.k as usize);
        let (lda, ldb, ldc) = (p.lda as usize, p.ldb as usize, p.ldc as usize);
        // B's columns gathered once, each K values in a row, so every dot product reads both operands in order.
        let b = &b;
        let b_cols: Vec<f64> = (0..n)
            .flat_map(|col| {
                (0..k).map(move |kk| match v.b {
                    BLayout::Kn => b[kk * ldb + col],
                    BLayout::Nk => b[col * ldb + kk],
                })
            })
            .collect();
        let mut c = vec![0.0f64; p.c_len()];
        for r in 0..m {
            let a_row = &a[r * lda..r * lda + k];
            for col in 0..n {
                let b_col = &b_cols[col * k..(col + 1) * k];
                c[r * ldc + col] = dot(a_row, b_col);
            }
        }
        vec![HostBuf::from_f64(v.out, &c)]
    }

    /// The output's rounding (relative) plus fp32 accumulation over K <= 1024 of products in [-1, 1)
    /// (absolute: 4 sqrt(K) f32 epsilon times a sum of magnitudes near K/4, under 4e-3).
    fn tolerance(&self, v: &Variant) -> Tolerance {
        // One output ulp (2 eps) relative: the reference is the exact sum rounded once, the kernel rounds its fp32
        // sum, and the two may land on either side of a rounding boundary (bf16 at 127x264x72: 1 element in 33528).
        Tolerance::Close {
            abs: 4e-3,
            rel: 2.0 * eps(v.out),
        }
    }

    fn accesses(&self, v: &Variant) -> Vec<SpecAccess> {
        // The smem baselines (unswizzled, padded) are not claimed conflict-free: showing what they cost is their
        // job (the padded nn B tile conflicts on its fills).
        let free = !spec::BASELINES.iter().any(|b| b.name == v.spec.name);
        v.spec
            .accesses(v.b, OutWidth::of(v.out))
            .iter()
            .map(|(label, smem, pattern)| SpecAccess {
                label,
                smem: *smem,
                access: pattern.warp(),
                conflict_free: free,
            })
            .collect()
    }

    /// The input and output types and B's layout (the problem's leading dimensions follow from them and the
    /// size): the tiles, stages, orders and smem layouts compute the same product.
    fn reference_class(&self, v: &Variant) -> Option<String> {
        Some(format!("{} {} {:?}", v.input, v.out, v.b))
    }

    fn verify_sizes(&self) -> Vec<Size> {
        crate::frame::sizes("1x8x16 127x264x72 300x504x264 1000x512x1000")
    }

    fn parts(&self) -> Parts<'_, Variant> {
        Parts::none().with_bench(self)
    }
}

/// The FLOPs of the product, against cuBLAS on the same types (the default measure and peer).
impl Bench for GemmFamily {
    fn block_label(&self, v: &Variant) -> String {
        format!("({},1)", v.spec.threads())
    }
    /// The mma.sync probe at the problem's flop count: the most any mma.sync kernel does here.
    fn ceiling(&self, v: &Variant, size: Size) -> Option<CeilingProbe> {
        let flops = size.flops() as f64;
        Some(CeilingProbe::MmaSync {
            input: v.input,
            flops,
        })
    }
    fn bench_sizes(&self) -> Vec<Size> {
        vec![Size::mnk(4096, 4096, 4096), Size::mnk(8192, 8192, 8192)]
    }
}

#[cfg(test)]
mod tests {
    use super::dot;

    #[test]
    fn dot_sums_every_product() {
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]), 32.0);
        let a: Vec<f64> = (0..21).map(f64::from).collect();
        let b: Vec<f64> = (0..21).map(|i| f64::from(i % 4)).collect();
        let want: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert_eq!(dot(&a, &b), want);
    }
}
