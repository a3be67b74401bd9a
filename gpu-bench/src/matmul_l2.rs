//! `swz bench matmul-l2`: every order on each shape, timed the harness's way (rotated buffers over 4x L2, warm-up,
//! CUDA events, median), with cuBLAS SGEMM on the same buffers in the same run as the reference, and the L2
//! model's prediction for this GPU beside each row.
//!
//! [`profile_once`] launches each (shape, order) exactly once and nothing else, for Nsight Compute
//! (`ncu --kernel-name matmul_l2`): one profiled launch per case, no `--launch-skip` bookkeeping.

use crate::bench::{self, BenchConfig, Spread};
use crate::progress::Progress;
use cudarc::driver::CudaSlice;
use gpu_kernels::frame::verify::launch_refs;
use gpu_kernels::frame::Family;
use gpu_kernels::matmul_l2::family::MATMUL_L2;
use gpu_kernels::matmul_l2::{MatmulL2, TILE};
use gpu_kernels::runtime::error::DriverContext;
use gpu_kernels::runtime::{Cublas, GemmCall};
use gpu_kernels::runtime::{Gpu, Result};
use std::fmt::Write as _;
use swizzle_core::l2::{predict, BlockTile, L2Config, Machine};
use swizzle_core::Elem;
use swizzle_core::Size;

/// The L2 model's configuration for `v` on `machine`: the kernel's [`TILE`]-cubed block tile, fp32.
pub fn l2_config(v: &MatmulL2, gemm: Size, machine: Machine) -> L2Config {
    L2Config {
        gemm,
        tile: BlockTile::new(TILE, TILE, TILE),
        elem_bytes: 4,
        raster: v.order,
        machine,
        schedule: swizzle_core::l2::Schedule::STAGGERED,
    }
}

/// The L2 study's shapes: 1024^3, 2048^3, 4096^3, 8192^3, 1024x1024x128, 16384x16384x128.
pub const STUDY_SHAPES: [Size; 6] = [
    Size::mnk(1024, 1024, 1024),
    Size::mnk(2048, 2048, 2048),
    Size::mnk(4096, 4096, 4096),
    Size::mnk(8192, 8192, 8192),
    Size::mnk(1024, 1024, 128),
    Size::mnk(16384, 16384, 128),
];

/// One measured row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// `identity`, `strip(tile=4)`, ... or `cuBLAS SGEMM`.
    pub order: String,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub runs: usize,
    pub tflops: f64,
    /// Percent of cuBLAS SGEMM's TFLOP/s in the same run.
    pub pct_of_cublas: f64,
    /// The L2 model's DRAM read bytes and ncu-style hit rate for this GPU (None for cuBLAS).
    pub predicted_dram_bytes: Option<u64>,
    pub predicted_l2_hit_rate: Option<f64>,
}

/// One shape: cuBLAS first, then every order.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Table {
    pub gemm: String,
    /// Blocks per SM the driver's occupancy calculator allows (the model's `resident`).
    pub resident: u32,
    pub rotating_sets: usize,
    pub rows: Vec<Row>,
}

impl Table {
    pub fn markdown(&self) -> String {
        let cublas = self.rows.first().map_or(0.0, |r| r.tflops);
        let mut s = format!(
            "matmul-l2 {} fp32 ({} rotating buffer sets, {} blocks/SM)\nreference: cuBLAS SGEMM (fp32, no TF32) = \
             {cublas:.2} TFLOP/s\n\n| order | time (ms) | TFLOP/s | % of cuBLAS | model DRAM (GB) | model L2 hit |\n\
             |---|--:|--:|--:|--:|--:|\n",
            self.gemm, self.rotating_sets, self.resident
        );
        for r in &self.rows {
            let (d, h) = match (r.predicted_dram_bytes, r.predicted_l2_hit_rate) {
                (Some(d), Some(h)) => (
                    format!("{:.3}", d as f64 / 1e9),
                    format!("{:.1}%", 100.0 * h),
                ),
                _ => ("-".into(), "-".into()),
            };
            let _ = writeln!(
                s,
                "| {} | {:.3} | {:.2} | {:.1}% | {d} | {h} |",
                r.order, r.median_ms, r.tflops, r.pct_of_cublas
            );
        }
        s
    }
}

/// Device buffers for one shape: `sets` rotating (A, B, C) triples.
struct Buffers {
    a: Vec<CudaSlice<f32>>,
    b: Vec<CudaSlice<f32>>,
    c: Vec<CudaSlice<f32>>,
}

impl Buffers {
    fn new(gpu: &Gpu, gemm: Size, sets: usize) -> Result<Buffers> {
        let (m, n, k) = (gemm.m as usize, gemm.n as usize, gemm.k as usize);
        let ha = gpu_kernels::elem::random::<f32>(m * k, 0xa);
        let hb = gpu_kernels::elem::random::<f32>(k * n, 0xb);
        Ok(Buffers {
            a: (0..sets).map(|_| gpu.upload(&ha)).collect::<Result<_>>()?,
            b: (0..sets).map(|_| gpu.upload(&hb)).collect::<Result<_>>()?,
            c: (0..sets)
                .map(|_| gpu.zeros::<f32>(m * n))
                .collect::<Result<_>>()?,
        })
    }
}

/// Time `run` with as many iterations as fit in about `budget_ms` (at least 3, at most `cfg.iters`), after
/// `cfg.warmup` warm-up runs: the 8192^3 cases take ~0.2 s a run, the 1024^3 ones ~0.2 ms.
fn time_budgeted(
    gpu: &Gpu,
    cfg: &BenchConfig,
    budget_ms: f64,
    mut run: impl FnMut(usize) -> Result<()>,
) -> Result<Spread> {
    let once = gpu.time_ms(|| run(0))? as f64;
    let iters = ((budget_ms / once.max(1e-3)) as usize).clamp(3, cfg.iters.max(3));
    let cfg = BenchConfig {
        iters,
        warmup: cfg.warmup,
        ..*cfg
    };
    bench::time(gpu, &cfg, run)
}

/// Measure cuBLAS and `variants` (those that run on `gemm`) on one shape.
pub fn table(
    gpu: &Gpu,
    gemm: Size,
    variants: &[MatmulL2],
    cfg: &BenchConfig,
    budget_ms: f64,
    progress: Option<&Progress>,
) -> Result<Table> {
    let (m, n, k) = (gemm.m as usize, gemm.n as usize, gemm.k as usize);
    let set_bytes = 4 * (m * k + k * n + m * n);
    let sets = bench::rotation(set_bytes, gpu.props().l2_bytes, cfg.l2_factor);
    let mut buf = Buffers::new(gpu, gemm, sets)?;
    let sgemm = Cublas::new(gpu)?;
    let call = GemmCall::row_major(gemm, Elem::F32, Elem::F32);
    let peer = time_budgeted(gpu, cfg, budget_ms, |i| {
        let s = i % sets;
        sgemm.gemm(&call, &buf.a[s], &buf.b[s], &mut buf.c[s])
    })?;
    let tflops = |s: &Spread| gemm.flops() as f64 / (s.median * 1e-3) / 1e12;
    let ref_tflops = tflops(&peer);
    let row = |order: String, s: &Spread, pred: Option<(u64, f64)>| Row {
        order,
        m: gemm.m,
        n: gemm.n,
        k: gemm.k,
        median_ms: s.median,
        min_ms: s.min,
        max_ms: s.max,
        runs: s.rounds,
        tflops: tflops(s),
        pct_of_cublas: 100.0 * tflops(s) / ref_tflops,
        predicted_dram_bytes: pred.map(|p| p.0),
        predicted_l2_hit_rate: pred.map(|p| p.1),
    };
    let mut rows = vec![row("cuBLAS SGEMM".into(), &peer, None)];
    let mut resident = 0;
    for v in variants.iter().filter(|v| v.runs_on(gemm)) {
        if let Some(p) = progress {
            p.step(&format!("{gemm} {}", v.order));
        }
        let (kernel, launch) = MATMUL_L2.prepared(gpu, v, gemm)?;
        resident = kernel
            .func
            .occupancy_max_active_blocks_per_multiprocessor(TILE * TILE, 0, None)
            .ctx("cuOccupancyMaxActiveBlocksPerMultiprocessor")?;
        let machine = Machine::new(
            gpu.props().sm_count,
            resident,
            gpu.props().l2_bytes as u64,
            2,
        );
        let pred = predict(&l2_config(v, gemm, machine))
            .ok()
            .map(|p| (p.dram_read_bytes, p.l2_hit_rate));
        let stats = time_budgeted(gpu, cfg, budget_ms, |i| {
            let s = i % sets;
            launch_refs(gpu, &kernel, &launch, &[&buf.a[s], &buf.b[s], &buf.c[s]])
        })?;
        rows.push(row(v.order.to_string(), &stats, pred));
    }
    Ok(Table {
        gemm: gemm.to_string(),
        resident,
        rotating_sets: sets,
        rows,
    })
}

/// One table per shape.
pub fn sweep(
    gpu: &Gpu,
    shapes: &[Size],
    variants: &[MatmulL2],
    cfg: &BenchConfig,
    budget_ms: f64,
) -> Result<Vec<Table>> {
    let total: usize = shapes
        .iter()
        .map(|g| variants.iter().filter(|v| v.runs_on(*g)).count())
        .sum();
    let progress = Progress::new(total as u64, "bench matmul-l2");
    let tables = shapes
        .iter()
        .map(|g| table(gpu, *g, variants, cfg, budget_ms, Some(&progress)))
        .collect::<Result<Vec<_>>>()?;
    progress.finish();
    Ok(tables)
}

/// Launch each variant once per shape (nothing else), in order, synchronising after each: the cases Nsight
/// Compute profiles. Prints one line per launch (`shape order`) so ncu's rows can be matched to cases.
pub fn profile_once(gpu: &Gpu, shapes: &[Size], variants: &[MatmulL2]) -> Result<Vec<String>> {
    let mut cases = Vec::new();
    for &gemm in shapes {
        let buf = Buffers::new(gpu, gemm, 1)?;
        for v in variants.iter().filter(|v| v.runs_on(gemm)) {
            let (kernel, launch) = MATMUL_L2.prepared(gpu, v, gemm)?;
            launch_refs(gpu, &kernel, &launch, &[&buf.a[0], &buf.b[0], &buf.c[0]])?;
            gpu.sync()?;
            cases.push(format!("{gemm} {}", v.order));
        }
    }
    Ok(cases)
}
