//! `swz bench transpose`: the article's bandwidth tables on this GPU (kernel, block, GB/s, % of a
//! device-to-device copy measured in the same run), for square fp32 and fp16 matrices.

use gpu_kernels::bench::{BenchConfig, Report};
use gpu_kernels::transpose::bench::{default_kernels, sweep, ARTICLE_BLOCKS};
use gpu_kernels::transpose::SEED_BLOCKS;
use gpu_kernels::{Elem, Gpu};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Family {
    /// Matrix transpose: the seed-004 kernels and the shared-memory tiled transposes.
    Transpose,
    /// Seed 000's fp32 smem matmul under every block order, cuBLAS SGEMM as the reference, with the L2 model's
    /// prediction per row (--shapes, --orders, --once).
    MatmulL2,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ElemArg {
    Fp32,
    Fp16,
}

impl From<ElemArg> for Elem {
    fn from(e: ElemArg) -> Elem {
        match e {
            ElemArg::Fp32 => Elem::F32,
            ElemArg::Fp16 => Elem::F16,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SeedBlocks {
    /// (8,32), (16,16), (32,8), (32,32): the article's shapes.
    Article,
    /// The article's shapes plus (16,32) and (32,16).
    All,
    /// Shared-memory kernels only.
    None,
}

#[derive(clap::Args)]
pub struct Args {
    /// Kernel family.
    #[arg(value_enum)]
    pub family: Family,
    /// Square matrix sizes (N for N x N).
    #[arg(long, value_delimiter = ',', default_values_t = [2048u32, 8192, 16384], value_parser = clap::value_parser!(u32).range(1..=65536))]
    sizes: Vec<u32>,
    /// Element types.
    #[arg(long, value_enum, value_delimiter = ',', default_values = ["fp32", "fp16"])]
    elem: Vec<ElemArg>,
    /// Block shapes for the seed kernels.
    #[arg(long, value_enum, default_value = "article")]
    seed_blocks: SeedBlocks,
    /// Timed runs per kernel (the median is reported).
    #[arg(long, default_value_t = 25, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    pub iters: usize,
    /// Untimed warm-up runs per kernel.
    #[arg(long, default_value_t = 3)]
    pub warmup: usize,
    /// Write everything measured (device, date, command, every row) as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write every row as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// GPU ordinal.
    #[arg(long, default_value_t = 0)]
    pub device: usize,
    /// matmul-l2: GEMM shapes MxNxK (default: the seed's six).
    #[arg(long, value_delimiter = ',', value_name = "MxNxK")]
    pub shapes: Vec<String>,
    /// matmul-l2: block orders, e.g. identity,strip:4,group-m:8 (default: the study's fourteen).
    #[arg(long, value_delimiter = ',', value_name = "ORDER[:P]")]
    pub orders: Vec<String>,
    /// matmul-l2: launch each (shape, order) once and print the cases, nothing timed (for ncu).
    #[arg(long)]
    pub once: bool,
    /// matmul-l2: time budget per row in ms (iterations = budget / one run, at least 3, at most --iters).
    #[arg(long, default_value_t = 300.0)]
    pub budget_ms: f64,
}

pub fn run(args: Args) -> Result<(), String> {
    if let Family::MatmulL2 = args.family {
        return crate::bench_matmul_l2::run(&args);
    }
    let gpu = Gpu::open(args.device).map_err(|e| e.to_string())?;
    let cfg = BenchConfig {
        warmup: args.warmup,
        iters: args.iters,
        ..BenchConfig::default()
    };
    let blocks: &[(u32, u32)] = match args.seed_blocks {
        SeedBlocks::Article => &ARTICLE_BLOCKS,
        SeedBlocks::All => &SEED_BLOCKS,
        SeedBlocks::None => &[],
    };
    let elems: Vec<Elem> = args.elem.iter().map(|e| (*e).into()).collect();
    outln!("device: {}", gpu.props());
    let tables = sweep(
        &gpu,
        &args.sizes,
        &elems,
        |e| default_kernels(e, blocks),
        &cfg,
    )
    .map_err(|e| e.to_string())?;
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    print_report(&report);
    write_outputs(&report, args.json.as_ref(), args.csv.as_ref())
}

/// The tables as markdown, with device, date and command first.
pub fn print_report(report: &Report) {
    outln!(
        "date: {}   command: {}   median of {} runs after {} warm-up, buffers rotated over >= {}x L2\n",
        report.date, report.command, report.config.iters, report.config.warmup, report.config.l2_factor
    );
    for t in &report.tables {
        outln!("{}", t.markdown());
    }
}

pub fn write_outputs(
    report: &Report,
    json: Option<&PathBuf>,
    csv: Option<&PathBuf>,
) -> Result<(), String> {
    if let Some(path) = json {
        std::fs::write(path, report.json()).map_err(|e| format!("{}: {e}", path.display()))?;
        outln!("wrote {}", path.display());
    }
    if let Some(path) = csv {
        std::fs::write(path, report.csv()).map_err(|e| format!("{}: {e}", path.display()))?;
        outln!("wrote {}", path.display());
    }
    Ok(())
}
