//! The matmul-l2 family on the frame: one spec per block order ([`super::SPECS`]), fp32 GEMM buffers, the f64 host
//! reference, cuBLAS (fp32 compute) as the peer.

use super::{matmul_host, MatmulL2, SPECS, TILE};
use crate::frame::{
    Arg, Bench, Buffer, Family, HostBuf, Identity, Launch, Parts, Size, SpecAccess, Tolerance,
};
use crate::runtime::{Result, Source};
use swizzle_core::Elem;

crate::family! {
    /// The family (registered in [`crate::registry::FAMILIES`]).
    pub static MATMUL_L2: MatmulL2Family = Identity::gemm("matmul-l2", "the threadblock-swizzling article's fp32 smem matmul (32x32 tiles) under every threadblock order; `swz l2` predicts its L2 traffic");
}

impl Family for MatmulL2Family {
    type Spec = MatmulL2;

    fn specs(&self) -> Vec<MatmulL2> {
        SPECS.to_vec()
    }

    fn spec_name(&self, s: &MatmulL2) -> String {
        s.label()
    }

    fn elem(&self, _s: &MatmulL2) -> Elem {
        Elem::F32
    }

    fn header(&self, s: &MatmulL2) -> swizzle_core::cuda::Header {
        s.header()
    }

    fn compile_unit(&self, s: &MatmulL2) -> (Source, Vec<String>) {
        s.source()
    }

    fn entry(&self, _s: &MatmulL2) -> &'static str {
        "matmul_l2"
    }

    /// `[A (m x k), B (k x n), C (m x n)]`.
    fn buffers(&self, _s: &MatmulL2, size: Size) -> Vec<Buffer> {
        let (m, n, k) = (size.m as usize, size.n as usize, size.k as usize);
        vec![
            Buffer::input("A", Elem::F32, m * k),
            Buffer::input("B", Elem::F32, k * n),
            Buffer::output("C", Elem::F32, m * n),
        ]
    }

    /// `matmul_l2(A, B, C, M, N, K)`.
    fn launch(&self, s: &MatmulL2, size: Size) -> Result<Launch> {
        let config = s.launch_config(size)?;
        Ok(Launch {
            config,
            args: vec![
                Arg::Buf(0),
                Arg::Buf(1),
                Arg::Buf(2),
                Arg::I32(size.m as i32),
                Arg::I32(size.n as i32),
                Arg::I32(size.k as i32),
            ],
        })
    }

    fn reference(&self, _s: &MatmulL2, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        let a: Vec<f32> = inputs[0].to_f64().into_iter().map(|v| v as f32).collect();
        let b: Vec<f32> = inputs[1].to_f64().into_iter().map(|v| v as f32).collect();
        let c = matmul_host(&a, &b, size);
        let c: Vec<f64> = c.into_iter().map(f64::from).collect();
        vec![HostBuf::from_f64(Elem::F32, &c)]
    }

    /// fp32 rounding of a K-term sum of products of values in [-1, 1): `|err| <= 2 K eps` (loose enough for any
    /// summation order, tight enough to catch a wrong element: a missing or doubled product moves the sum by up
    /// to 1, hundreds of times more).
    fn tolerance(&self, _s: &MatmulL2) -> Tolerance {
        Tolerance::Sum {
            per_term: 2.0 * f64::from(f32::EPSILON),
        }
    }

    fn accesses(&self, s: &MatmulL2) -> Vec<SpecAccess> {
        s.accesses().to_vec()
    }

    /// One class: every block order computes the same fp32 product.
    fn reference_class(&self, _s: &MatmulL2) -> Option<String> {
        Some("f32".to_string())
    }

    /// The frame runs every spec at every size and Morton needs a power-of-two tile grid, so M and N here are
    /// powers of two in tiles; K is ragged (a partial last K step). The ragged M and N shapes (Morton skipped)
    /// are in `tests/matmul_l2_device.rs`.
    fn verify_sizes(&self) -> Vec<Size> {
        crate::frame::sizes("64x64x75 256x512x97 1024x1024x128")
    }

    fn parts(&self) -> Parts<'_, MatmulL2> {
        Parts::none().with_bench(self)
    }
}

/// The FLOPs of the product, against cuBLAS in fp32 (the default measure and peer).
impl Bench for MatmulL2Family {
    fn block_label(&self, _s: &MatmulL2) -> String {
        format!("({TILE},{TILE})")
    }
    /// The study's 2048^3 and 4096^3 (the L2 study with every shape is `swz l2-study`).
    fn bench_sizes(&self) -> Vec<Size> {
        vec![Size::mnk(2048, 2048, 2048), Size::mnk(4096, 4096, 4096)]
    }
    /// 4096^3: at 2048^3 the three 16 MB matrices fit in the L2, and the block order the family is about
    /// matters less.
    fn report_size(&self) -> Option<Size> {
        Some(Size::mnk(4096, 4096, 4096))
    }
}
