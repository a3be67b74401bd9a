//! The GEMM benchmark: per shape, input type and B layout, cuBLAS and every listed spec on the same buffers, in the
//! same run, timed with the crate's harness ([`crate::bench::time`]: warm-up, CUDA events per run, median).
//!
//! Reported per row: TFLOP/s (`2 M N K / median`), % of cuBLAS measured in this run, and % of the mma.sync
//! ceiling ([`MMA_SYNC_CEILING_TFLOPS`]).

use super::{BLayout, Cublas, GemmSpec, InElem, InType, Problem, Variant};
use crate::bench::{time, BenchConfig};
use crate::runtime::{Gpu, Result};
use cudarc::cublas::CudaBlas;

/// Public measurements put dense fp16/bf16 `mma.sync` on an H100 SXM near 620-640 TFLOP/s (63-65% of the wgmma
/// peak); the tables use the middle of that range.
pub const MMA_SYNC_CEILING_TFLOPS: f64 = 630.0;

/// The shapes of the issue: `(M, N, K)`.
pub const SHAPES: [(u32, u32, u32); 4] = [
    (4096, 4096, 4096),
    (8192, 8192, 8192),
    (16384, 16384, 1024),
    (4096, 4096, 1024),
];

/// One measured kernel on one problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    pub shape: String,
    pub dtype: &'static str,
    pub b: &'static str,
    /// `cuBLAS` or the spec name.
    pub kernel: String,
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub tflops: f64,
    pub pct_of_cublas: f64,
    pub pct_of_mma_sync_ceiling: f64,
}

/// Time cuBLAS and each of `specs` on one `m x n x k` problem with input (and output) type `I`.
pub fn measure<I: InElem>(
    gpu: &Gpu,
    cfg: &BenchConfig,
    blas: &Cublas,
    p: &Problem,
    specs: &[GemmSpec],
) -> Result<Vec<Row>>
where
    CudaBlas: cudarc::cublas::Gemm<I>,
{
    let a = gpu.upload(&super::random_input::<I>(p.a_len(), 1))?;
    let b = gpu.upload(&super::random_input::<I>(p.b_len(), 2))?;
    let mut c = gpu.zeros::<I>(p.c_len())?;
    let row = |kernel: String, s: crate::bench::Stats, reference_ms: f64| {
        let tflops = p.flops() / (s.median_ms * 1e-3) / 1e12;
        Row {
            shape: format!("{}x{}x{}", p.m, p.n, p.k),
            dtype: I::IN.name(),
            b: p.b.name(),
            kernel,
            median_ms: s.median_ms,
            min_ms: s.min_ms,
            max_ms: s.max_ms,
            tflops,
            pct_of_cublas: 100.0 * reference_ms / s.median_ms,
            pct_of_mma_sync_ceiling: 100.0 * tflops / MMA_SYNC_CEILING_TFLOPS,
        }
    };
    let cublas = time(gpu, cfg, |_| blas.gemm(p, &a, &b, &mut c))?;
    let mut rows = vec![row("cuBLAS".into(), cublas, cublas.median_ms)];
    for s in specs {
        let v = Variant::new(*s, p.b, I::IN, I::IN.same_out());
        let k = v.prepare(gpu)?;
        let st = time(gpu, cfg, |_| v.launch(gpu, &k, p, &a, &b, &mut c))?;
        rows.push(row(s.name.to_string(), st, cublas.median_ms));
    }
    Ok(rows)
}

/// [`measure`] for the run-time input type.
pub fn measure_dyn(
    gpu: &Gpu,
    cfg: &BenchConfig,
    blas: &Cublas,
    input: InType,
    (m, n, k): (u32, u32, u32),
    b: BLayout,
    specs: &[GemmSpec],
) -> Result<Vec<Row>> {
    let p = Problem::new(m, n, k, b);
    match input {
        InType::F16 => measure::<half::f16>(gpu, cfg, blas, &p, specs),
        InType::Bf16 => measure::<half::bf16>(gpu, cfg, blas, &p, specs),
    }
}

/// A markdown table of `rows`.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| shape | dtype | B | kernel | median ms | TFLOP/s | % of cuBLAS | % of mma.sync ceiling |\n\
         |---|---|---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.3} | {:.1} | {:.1} | {:.1} |\n",
            r.shape,
            r.dtype,
            r.b,
            r.kernel,
            r.median_ms,
            r.tflops,
            r.pct_of_cublas,
            r.pct_of_mma_sync_ceiling
        ));
    }
    s
}
