//! `swz tune FAMILY ...`: a family's tuning tools on the GPU: sweeps over specs and sizes, cuBLAS in interleaved
//! rounds, sustained bursts, diagnostic builds. The work is gpu-bench's (`gemm::tune`, `hopper::tune`,
//! `stencil::bench`); this module parses arguments and prints.

use crate::cmd::bench::{check_targets, print_report, write_outputs};
use gpu_bench::bench::{BenchConfig, Report};
use gpu_bench::gemm::tune as gt;
use gpu_bench::progress::Progress;
use gpu_kernels::gemm::{self, BLayout};
use gpu_kernels::Elem;
use gpu_kernels::{Gpu, Size};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    family: Family,
}

#[derive(clap::Subcommand)]
enum Family {
    /// The mma.sync GEMM: lineups against cuBLAS, interleaved rounds, the mma.sync ceiling, bursts, diagnostics.
    Gemm(GemmArgs),
    /// The Hopper (TMA + wgmma) GEMM: the headline in interleaved rounds, the full sweep, or any shapes (planned
    /// and shipped spec) against cuBLAS.
    Hopper(HopperArgs),
    /// The stencil: every variant over sizes x radii x value types, with the summary table.
    Stencil(StencilArgs),
}

#[derive(clap::Args)]
struct GemmArgs {
    #[command(subcommand)]
    mode: GemmMode,
}

/// Options shared by the GEMM lineups (each mode has its own defaults).
#[derive(clap::Args)]
struct Lineup {
    /// Problems, MxNxK (comma-separated).
    #[arg(long, value_delimiter = ',', value_parser = crate::args::parse_shape)]
    shapes: Vec<Size>,
    /// Input types: fp16, bf16.
    #[arg(long, value_delimiter = ',', value_parser = parse_dtype)]
    dtypes: Vec<Elem>,
    /// B layouts: tn (B stored N x K), nn (K x N).
    #[arg(long, value_delimiter = ',', value_parser = parse_b)]
    b: Vec<BLayout>,
    /// Specs: names, or the groups tiles, orders, baselines, default, all.
    #[arg(long, value_delimiter = ',')]
    specs: Vec<String>,
    /// Timed runs per kernel (per round where there are rounds).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iters: Option<u32>,
    /// Interleaved rounds (rounds, peak, diag).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    rounds: Option<u32>,
    /// Write every row as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
enum GemmMode {
    /// cuBLAS and the specs on the same buffers, each timed in one block, with the mma.sync ceiling
    /// (defaults: the four shapes, fp16 and bf16, tn, default + baselines + the identity order, 30 runs).
    Bench(Lineup),
    /// cuBLAS and the specs in interleaved rounds, order rotated each round: the median per-round ratio to cuBLAS
    /// and to the first spec (defaults: 8192^3, fp16 and bf16, tn and nn, default + identity order, 12 rounds).
    Rounds(Lineup),
    /// cuBLAS, the specs (tn) and the mma.sync probes in interleaved rounds: the measured ceiling beside cuBLAS
    /// (defaults: 4096^3 and 8192^3, fp16 and bf16, default spec, 8 rounds).
    Peak(Lineup),
    /// fp16 tn: each spec as shipped, without its mma and without its fill, beside cuBLAS, in interleaved rounds:
    /// where the main loop's time goes (the cut-down builds are wrong by design and only timed). Needs swz built
    /// with `--features experiments`.
    Diag {
        /// The problem, MxNxK.
        #[arg(value_parser = crate::args::parse_shape)]
        shape: Size,
        /// Specs (names or groups; space- or comma-separated).
        #[arg(required = true, value_delimiter = ',')]
        specs: Vec<String>,
        /// Interleaved rounds.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        rounds: u32,
    },
    /// cuBLAS, each spec and the 2-warps-per-scheduler probe, each back to back for --ms, with the SM clock and
    /// board power nvidia-smi sampled during each burst: one JSON line per burst, then a table.
    Burst {
        /// The problem, MxNxK.
        #[arg(value_parser = crate::args::parse_shape)]
        shape: Size,
        /// Specs (names or groups; space- or comma-separated).
        #[arg(value_delimiter = ',')]
        specs: Vec<String>,
        /// Milliseconds per burst.
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
        ms: u64,
        /// Passes over the lineup (odd passes in reverse order), after one untimed warm-up burst.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
        repeat: u32,
        /// Input type: fp16 or bf16.
        #[arg(long, default_value = "fp16", value_parser = parse_dtype)]
        dtype: Elem,
        /// B layout: tn or nn.
        #[arg(long, default_value = "tn", value_parser = parse_b)]
        b: BLayout,
        /// Only the specs: no cuBLAS, no probe.
        #[arg(long)]
        no_peers: bool,
    },
    /// Every variant (specs, baselines, experiments x B layout x input x output type) on a ragged 300x500x264
    /// problem against the host reference.
    Check {
        /// Only variants whose file name (spec-b-in-out) contains this text.
        #[arg(long, value_name = "TEXT")]
        filter: Option<String>,
    },
    /// Launch each spec once at N^3 fp16 (for Nsight Compute) and print the bank model's ldmatrix and epilogue
    /// counts for it, one JSON line each.
    Ncu {
        /// B layout: tn or nn.
        #[arg(long, value_parser = parse_b)]
        b: BLayout,
        /// Specs (names or groups; space- or comma-separated).
        #[arg(required = true, value_delimiter = ',')]
        specs: Vec<String>,
        /// fp32 output: the model's epilogue shared-store counts instead.
        #[arg(long)]
        f32_out: bool,
        /// The problem's side.
        #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u32).range(16..=32768))]
        size: u32,
    },
}

#[derive(clap::Args)]
struct HopperArgs {
    /// `headline` (every candidate against cuBLAS in interleaved rounds, bf16 and fp16, 8192^3 and 4096^3),
    /// `sweep` (candidates in three alternating rounds, each one-change variant, the short-K raster problem),
    /// `shapes` (at each --shapes / --llm problem the planned and the shipped spec against cuBLAS in interleaved
    /// rounds, with the model's prediction and, for M <= 128, the HBM roofline) or `fp8-block` (the e4m3
    /// block-scaling variants against cuBLASLt FP8 in interleaved rounds at --shapes, default 4096x7168x16384
    /// and 8192^3).
    #[arg(value_parser = ["headline", "sweep", "shapes", "fp8-block"])]
    mode: String,
    /// Interleaved rounds (headline: default 24; shapes: default 5).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    rounds: Option<u32>,
    /// Leave out the cluster variants (sweep).
    #[arg(long)]
    skip_cluster: bool,
    /// Also write the markdown and JSON (and, for sweep, the shipped CUBIN and its ptxas log) into this folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Problems MxNxK, C = X (M x K) * W^T (W: N x K) (shapes).
    #[arg(long, value_delimiter = ',', value_parser = crate::args::parse_shape)]
    shapes: Vec<Size>,
    /// The LLM linear layers (8B qkv, o, gate+up, down; 70B qkv, down) at M = 16, 128, 512, 2048, 8192: 30
    /// problems, after any --shapes (shapes).
    #[arg(long)]
    llm: bool,
    /// Element types: bf16, fp16 (shapes; default both).
    #[arg(long, value_delimiter = ',', value_parser = parse_half)]
    dtypes: Vec<Elem>,
    /// Write every row, the geomeans and the copy rate as JSON (shapes).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also measure the planner's next N candidates (one per kernel shape) in the same rounds, and report the
    /// fastest spec measured beside the plan (shapes).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=16))]
    candidates: Option<u32>,
}

fn parse_half(s: &str) -> Result<Elem, String> {
    match s.trim() {
        "bf16" => Ok(Elem::BF16),
        "fp16" | "f16" => Ok(Elem::F16),
        _ => Err(format!("expected bf16 or fp16, got {s:?}")),
    }
}

#[derive(clap::Args)]
struct StencilArgs {
    /// Sizes: log2 (27 = 2^27) or element counts.
    #[arg(long, value_delimiter = ',', default_values_t = [27u64, 28])]
    n: Vec<u64>,
    /// Radii.
    #[arg(long, value_delimiter = ',', default_values_t = gpu_kernels::stencil::family::RADII)]
    k: Vec<u32>,
    /// Value types: fp32, i32.
    #[arg(long, value_delimiter = ',', default_value = "fp32")]
    types: Vec<String>,
    /// Only these variants (names).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Timed runs per kernel.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iters: u32,
    /// Write the whole report (device, date, command, tables) as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
}

fn parse_dtype(s: &str) -> Result<Elem, String> {
    gt::parse_dtype(s).map_err(|e| e.to_string())
}

fn parse_b(s: &str) -> Result<BLayout, String> {
    gt::parse_b(s).map_err(|e| e.to_string())
}

/// `given`, or `default` when nothing was given.
fn or<T: Clone>(given: &[T], default: &[T]) -> Vec<T> {
    if given.is_empty() {
        default.to_vec()
    } else {
        given.to_vec()
    }
}

fn specs(names: &[String], default: &[&str]) -> Result<Vec<gemm::GemmSpec>, String> {
    let names: Vec<String> = if names.is_empty() {
        default.iter().map(|s| s.to_string()).collect()
    } else {
        names.to_vec()
    };
    gt::parse_specs(&names).map_err(|e| e.to_string())
}

/// Opens the GPU (the first thing every tool does, so a machine without one gets one line and nothing else).
fn open() -> Result<Gpu, String> {
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    errln!("device: {}", gpu.props());
    Ok(gpu)
}

pub fn run(args: Args) -> Result<(), String> {
    match args.family {
        // A tuning run's length is not known beforehand: a spinner (or a status line whenever stderr has been
        // silent for a while) with the rows printed so far. The stencil's sweep has its own progress per table.
        // A run refused (bad arguments, no GPU) ends its phase without a line: the error is the one line.
        Family::Gemm(g) => {
            let p = Progress::open_ended("tune gemm");
            gemm_run(g.mode, &p).inspect(|_| p.finish())
        }
        Family::Hopper(h) => {
            let p = Progress::open_ended(&format!("tune hopper {}", h.mode));
            hopper_run(h).inspect(|_| p.finish())
        }
        Family::Stencil(s) => stencil_run(s),
    }
}

fn gemm_run(mode: GemmMode, progress: &Progress) -> Result<(), String> {
    let e = |e: gpu_kernels::Error| e.to_string();
    // Each line printed is a row done.
    let mut print = |text: &str| {
        outln!("{text}");
        let row: String = text
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .chars()
            .take(60)
            .collect();
        progress.step(&row);
    };
    // Plans with each mode's defaults: (shapes, dtypes, b, specs, warmup, iters, rounds).
    let plan = |l: &Lineup,
                shapes: &[Size],
                bs: &[BLayout],
                default_specs: &[&str],
                (warmup, iters, rounds): (usize, u32, u32)|
     -> Result<gt::Plan, String> {
        if let Some(path) = &l.json {
            crate::output::check_target("--json", path)?;
        }
        Ok(gt::Plan {
            shapes: or(&crate::args::distinct(&l.shapes), shapes),
            dtypes: or(&l.dtypes, &gemm::INPUTS),
            bs: or(&l.b, bs),
            specs: specs(&l.specs, default_specs)?,
            cfg: BenchConfig {
                warmup,
                iters: l.iters.unwrap_or(iters) as usize,
                l2_factor: 1,
            },
            rounds: l.rounds.unwrap_or(rounds) as usize,
        })
    };
    let json = |path: &Option<PathBuf>, rows: &dyn erased::Json| -> Result<(), String> {
        match path {
            Some(p) => crate::output::write_file("--json", p, &rows.json()),
            None => Ok(()),
        }
    };
    let finish = |gpu: &Gpu| {
        outln!(
            "\ndevice: {} ({})",
            gpu.props(),
            gpu_bench::bench::today_utc()
        )
    };
    match mode {
        GemmMode::Bench(l) => {
            let plan = plan(
                &l,
                &gpu_bench::gemm::bench::SHAPES,
                &[BLayout::Nk],
                &["default", "baselines", "t128x256k32s4-identity"],
                (10, 30, 1),
            )?;
            let gpu = open()?;
            let rows = gt::bench(&gpu, &plan, &mut print).map_err(e)?;
            finish(&gpu);
            json(&l.json, &rows)
        }
        GemmMode::Rounds(l) => {
            let plan = plan(
                &l,
                &[Size::mnk(8192, 8192, 8192)],
                &[BLayout::Nk, BLayout::Kn],
                &["default", "t128x256k32s4-identity"],
                (3, 10, 12),
            )?;
            let gpu = open()?;
            let rows = gt::rounds(&gpu, &plan, &mut print).map_err(e)?;
            finish(&gpu);
            json(&l.json, &rows)
        }
        GemmMode::Peak(l) => {
            let plan = plan(
                &l,
                &[Size::mnk(4096, 4096, 4096), Size::mnk(8192, 8192, 8192)],
                &[BLayout::Nk],
                &["default"],
                (3, 10, 8),
            )?;
            let gpu = open()?;
            let rows = gt::peak(&gpu, &plan, &mut print).map_err(e)?;
            finish(&gpu);
            json(&l.json, &rows)
        }
        #[cfg(feature = "experiments")]
        GemmMode::Diag {
            shape,
            specs: names,
            rounds,
        } => {
            let list = specs(&names, &[])?;
            let gpu = open()?;
            gt::diag(&gpu, shape, &list, rounds as usize, &mut print).map_err(e)
        }
        #[cfg(not(feature = "experiments"))]
        GemmMode::Diag { .. } => Err(
            "swz tune gemm diag: the diagnostic builds need swz built with `--features experiments`".into(),
        ),
        GemmMode::Burst {
            shape,
            specs: names,
            ms,
            repeat,
            dtype,
            b,
            no_peers,
        } => {
            let list = if names.is_empty() {
                Vec::new()
            } else {
                specs(&names, &[])?
            };
            if no_peers && list.is_empty() {
                return Err("--no-peers needs at least one spec".into());
            }
            let o = gt::Burst {
                shape,
                dtype,
                b,
                specs: list,
                ms,
                repeat: repeat as usize,
                peers: !no_peers,
            };
            let gpu = open()?;
            gt::burst(&gpu, &o, &mut print).map(drop).map_err(e)
        }
        GemmMode::Check { filter } => {
            let variants = gt::variants(filter.as_deref());
            if variants.is_empty() {
                return Err(format!("no GEMM variant's file name contains {filter:?}"));
            }
            let gpu = open()?;
            gt::check_variants(&gpu, &variants, &mut print).map_err(e)
        }
        GemmMode::Ncu {
            b,
            specs: names,
            f32_out,
            size,
        } => {
            let list = specs(&names, &[])?;
            let gpu = open()?;
            gt::ncu_model(&gpu, b, size, &list, f32_out, &mut print).map_err(e)
        }
    }
}

/// Rows that serialise to pretty JSON, whatever their type.
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for Vec<T> {
        fn json(&self) -> String {
            serde_json::to_string_pretty(self).expect("plain rows")
        }
    }
}

fn hopper_run(h: HopperArgs) -> Result<(), String> {
    let shapes_only = |flag: &str, given: bool| {
        if given && h.mode != "shapes" {
            Err(format!("{flag} is for `swz tune hopper shapes`"))
        } else {
            Ok(())
        }
    };
    shapes_only("--shapes", !h.shapes.is_empty() && h.mode != "fp8-block")?;
    shapes_only("--llm", h.llm)?;
    shapes_only("--dtypes", !h.dtypes.is_empty())?;
    shapes_only("--json", h.json.is_some())?;
    shapes_only("--candidates", h.candidates.is_some())?;
    if h.mode == "shapes" {
        return hopper_shapes(&h);
    }
    // Refuse an --out that is not a folder now, and create it only once the GPU is open: a refused run leaves
    // nothing behind.
    if let Some(dir) = &h.out {
        if dir.exists() && !dir.is_dir() {
            return Err(format!("--out {}: not a folder", dir.display()));
        }
    }
    let gpu = open()?;
    if let Some(dir) = &h.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    }
    let md = match h.mode.as_str() {
        "fp8-block" => gpu_bench::hopper::fp8_sweep::block_sweep(
            &gpu,
            &or(
                &h.shapes,
                &[Size::mnk(4096, 7168, 16384), Size::mnk(8192, 8192, 8192)],
            ),
            h.rounds.unwrap_or(5) as usize,
            &BenchConfig {
                warmup: 3,
                iters: 10,
                l2_factor: 2,
            },
        ),
        "headline" => gpu_bench::hopper::tune::headline(
            &gpu,
            h.rounds.unwrap_or(24) as usize,
            h.out.as_deref(),
        ),
        _ => gpu_bench::hopper::tune::sweep_report(&gpu, h.out.as_deref(), h.skip_cluster),
    }
    .map_err(|e| e.to_string())?;
    outln!("{md}");
    Ok(())
}

/// `swz tune hopper shapes`: the problems checked (K a multiple of 8) before the GPU is opened.
fn hopper_shapes(h: &HopperArgs) -> Result<(), String> {
    use gpu_bench::hopper::shapes;
    use gpu_kernels::hopper::{check_dims, TYPES};
    if h.skip_cluster || h.out.is_some() {
        return Err("shapes takes --json, not --out or --skip-cluster".into());
    }
    let mut problems = h.shapes.clone();
    if h.llm {
        problems.extend(gpu_kernels::hopper::planned::llm_shapes());
    }
    let problems = crate::args::distinct(&problems);
    if problems.is_empty() {
        return Err("shapes: name the problems with --shapes MxNxK,... or --llm".into());
    }
    for &size in &problems {
        check_dims(size).map_err(|e| format!("--shapes: {e}"))?;
    }
    let types = or(&h.dtypes, &TYPES);
    let gpu = open()?;
    let md = shapes::shapes_report(
        &gpu,
        &problems,
        &types,
        h.rounds.unwrap_or(5) as usize,
        h.candidates.unwrap_or(0) as usize,
        h.json.as_deref(),
    )
    .map_err(|e| e.to_string())?;
    outln!("{md}");
    if let Some(path) = &h.json {
        outln!("wrote {}", path.display());
    }
    Ok(())
}

fn stencil_run(s: StencilArgs) -> Result<(), String> {
    use gpu_bench::stencil as bench;
    use gpu_kernels::elem::table_name;
    use gpu_kernels::stencil::{SPECS, TYPES};
    let sizes: Vec<usize> =
        s.n.iter()
            .map(|&v| match v {
                0 => Err("--n: a size must be positive".to_string()),
                v if v < 40 => Ok(1usize << v),
                v => usize::try_from(v).map_err(|_| format!("--n: {v} is too large")),
            })
            .collect::<Result<_, _>>()?;
    let types = s
        .types
        .iter()
        .map(|t| {
            TYPES
                .into_iter()
                .find(|&v| table_name(v) == t)
                .ok_or_else(|| format!("--types: unknown value type {t:?} (fp32, i32)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut specs = SPECS.to_vec();
    if !s.only.is_empty() {
        if let Some(bad) = s.only.iter().find(|n| !SPECS.iter().any(|x| x.name == **n)) {
            return Err(format!("--only: no stencil variant {bad:?}"));
        }
        specs.retain(|x| s.only.iter().any(|n| n == x.name));
    }
    if s.k.contains(&0) {
        return Err("--k: a radius must be positive".into());
    }
    let cfg = BenchConfig {
        iters: s.iters as usize,
        ..BenchConfig::default()
    };
    check_targets(s.json.as_ref(), None)?;
    let gpu = open()?;
    let tables =
        bench::sweep(&gpu, &sizes, &s.k, &types, &specs, &cfg).map_err(|e| e.to_string())?;
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    print_report(&report);
    outln!("summary (% of D2D; smem/shfl = time ratio at equal outputs per thread, > 1: register cache faster)\n");
    outln!("{}", bench::summary(&report.tables, &specs));
    write_outputs(&report, s.json.as_ref(), None)
}
