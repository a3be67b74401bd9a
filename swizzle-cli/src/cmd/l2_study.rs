//! `swz l2-study`: the threadblock-swizzling article's study on this GPU, with the L2 model beside the measurements. Per shape, cuBLAS
//! SGEMM (fp32, no TF32) and then every order of the matmul-l2 family: time, TFLOP/s, % of cuBLAS, and the L2
//! model's predicted DRAM bytes and hit rate for this GPU. `--once` launches each case once and times nothing:
//! run it under `ncu --kernel-name matmul_l2` (what `scripts/device.sh l2` does).
//! (`swz bench matmul-l2` is the frame's generic table of the same family.)

use gpu_bench::bench::{today_utc, BenchConfig};
use gpu_bench::matmul_l2::{profile_once, sweep, STUDY_SHAPES};
use gpu_kernels::matmul_l2::{MatmulL2, ORDERS};
use gpu_kernels::Gpu;
use std::path::PathBuf;
use swizzle_core::Size;

#[derive(clap::Args)]
pub struct Args {
    /// GEMM shapes MxNxK (default: the L2 study's six).
    #[arg(long, value_delimiter = ',', value_name = "MxNxK")]
    shapes: Vec<String>,
    /// Block orders, e.g. identity,strip:4,group-m:8 (default: the study's fourteen).
    #[arg(long, value_delimiter = ',', value_name = "ORDER[:P]")]
    orders: Vec<String>,
    /// Launch each (shape, order) once and print the cases, nothing timed (for ncu).
    #[arg(long)]
    once: bool,
    /// Time budget per row in ms (iterations = budget / one run, at least 3, at most --iters).
    #[arg(long, default_value_t = 300.0)]
    budget_ms: f64,
    /// Most timed runs per row (the median is reported).
    #[arg(long, default_value_t = 25, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    iters: usize,
    /// Untimed warm-up runs per row.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Write everything measured (device, date, command, every row) as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// GPU ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
}

/// `--shapes` (default: the L2 study's six) and `--orders` (default: the study's list).
fn cases(args: &Args) -> Result<(Vec<Size>, Vec<MatmulL2>), String> {
    let shapes = if args.shapes.is_empty() {
        STUDY_SHAPES.to_vec()
    } else {
        args.shapes
            .iter()
            .map(|s| s.parse::<Size>().map_err(|e| format!("--shapes: {e}")))
            .collect::<Result<_, _>>()?
    };
    let orders = if args.orders.is_empty() {
        ORDERS.to_vec()
    } else {
        args.orders
            .iter()
            .map(|o| crate::cmd::raster::parse_order(o, None))
            .collect::<Result<_, _>>()?
    };
    Ok((shapes, orders.into_iter().map(MatmulL2::new).collect()))
}

pub fn run(args: Args) -> Result<(), String> {
    let (shapes, variants) = cases(&args)?;
    if let Some(path) = &args.json {
        crate::output::check_target("--json", path)?;
    }
    let gpu = Gpu::open(args.device).map_err(|e| e.to_string())?;
    outln!("device: {}", gpu.props());
    if args.once {
        for case in profile_once(&gpu, &shapes, &variants).map_err(|e| e.to_string())? {
            outln!("launched {case}");
        }
        return Ok(());
    }
    let cfg = BenchConfig {
        warmup: args.warmup,
        iters: args.iters,
        ..BenchConfig::default()
    };
    let tables =
        sweep(&gpu, &shapes, &variants, &cfg, args.budget_ms).map_err(|e| e.to_string())?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    outln!(
        "date: {}   command: {command}   median of up to {} runs (>= 3, ~{} ms per row) after {} warm-up, buffers \
         rotated over >= {}x L2\n",
        today_utc(),
        cfg.iters,
        args.budget_ms,
        cfg.warmup,
        cfg.l2_factor
    );
    for t in &tables {
        outln!("{}", t.markdown());
    }
    if let Some(path) = &args.json {
        let doc = serde_json::json!({
            "device": gpu.props(),
            "date": today_utc(),
            "command": command,
            "tables": tables,
        });
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        crate::output::write_file("--json", path, &text)?;
        outln!("wrote {}", path.display());
    }
    Ok(())
}
