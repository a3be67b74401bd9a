//! `swz bench <family>`: the family's benchmark tables on this GPU (variant, block, time, rate, % of the peer
//! measured in the same run: a device-to-device copy for bandwidth families, cuBLAS for GEMMs). The families are
//! gpu-kernels' registry (`gpu_kernels::registry::FAMILIES`); nothing here knows one family from another. The
//! bench plan ([`plan`]) may add companions (`swz bench gemm` also runs the Hopper GEMM); `--list` prints the
//! plan without a GPU. At problems named with `--shapes`, a family that plans per problem (the Hopper GEMM: the
//! spec swizzle-core's planner picks) runs its planned specs; `--list` shows them with the predicted time.

use gpu_bench::bench::{BenchConfig, Report};
use gpu_bench::hopper::chain::Kind;
use gpu_kernels::frame::{self, DynFamily};
use gpu_kernels::registry;
use gpu_kernels::{Gpu, Size};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel family (`transpose`, ...: every family of gpu-kernels' registry).
    #[arg(value_name = "FAMILY")]
    family: String,
    /// Problem sizes: N for the family's size of side N (square or cubic; a length for 1D families such as the
    /// stencil); default: the family's own. Sizes the GPU cannot hold fail at allocation with the reason.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=(1 << 30)))]
    sizes: Vec<u32>,
    /// Problems MxNxK for the GEMM families (gemm, hopper, matmul-l2), beside or instead of --sizes, each side
    /// 1 to 1048576 (2^20); a shape named twice runs once. The Hopper GEMM runs the spec planned for each (see
    /// --list).
    #[arg(long, value_delimiter = ',', value_parser = crate::args::parse_shape)]
    shapes: Vec<Size>,
    /// With --dtype e4m3: also the LLM linear layers (8B qkv, o, gate+up, down; 70B qkv, down) at M = 16, 128,
    /// 512, 2048, 8192, 30 problems after any --shapes.
    #[arg(long)]
    llm: bool,
    /// Run the --shapes problems as chains, one per token count M (its layers back to back in the order given,
    /// as a model's block runs them): ours with each layer chained to the one before (programmatic dependent
    /// launch) and not, against the peer's chain (cuBLAS in bf16, or fp16 with --elem fp16; cuBLASLt with --dtype
    /// e4m3).
    #[arg(long)]
    chain: bool,
    /// Only variants of these element types (f32, f16, bf16, ...; fp32/fp16 accepted).
    #[arg(long, value_delimiter = ',')]
    elem: Vec<String>,
    /// `e4m3`: the FP8 GEMM (e4m3 in, bf16 out, fp32 scales) at the --shapes problems, planned per problem,
    /// against cuBLASLt's FP8 GEMM in interleaved rounds on the same buffers (families gemm and hopper only).
    #[arg(long, value_name = "e4m3")]
    dtype: Option<String>,
    /// With --dtype e4m3: the scaling modes to measure (tensor, row, block).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "tensor",
        value_name = "tensor|row|block"
    )]
    scale: Vec<String>,
    /// With --dtype e4m3: interleaved rounds (each contestant --warmup + --iters launches per round).
    #[arg(long, default_value_t = 5, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    rounds: usize,
    /// With --dtype e4m3: also the planner's next N kernel shapes at each problem, checked and measured in the
    /// same rounds, each against the plan: how far the model's ranking holds (0 to 8).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=8))]
    candidates: Option<usize>,
    /// With --dtype e4m3: one operand set that every launch reuses, so a problem whose operands fit stays in the
    /// L2 (a decode layer run again right after its weights were read; the bare read reads one set too). Without
    /// it, enough sets rotate that each launch reads its weights from HBM.
    #[arg(long)]
    l2_resident: bool,
    /// With --dtype e4m3: time each contestant's --iters launches run back to back, per launch the span over
    /// them (as a CUDA graph replay of a model's layers times them), instead of an event pair around each launch.
    #[arg(long)]
    back_to_back: bool,
    /// With --dtype e4m3: sustained load instead of interleaved rounds. cuBLASLt per-tensor and the planned
    /// kernel in each --scale mode each run back to back for MS milliseconds a burst (100 to 60000), the SM clock
    /// and board power sampled by nvidia-smi: TFLOP/s at the clock the card holds at its power cap, and as a share
    /// of the tensor peak at that clock (--rounds, --iters and --warmup are the rounds' and do not apply).
    #[arg(long, value_name = "MS", value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(100..=60_000))]
    sustained: Option<u64>,
    /// With --sustained: passes over the contestants (every other one in reverse order) after one warm-up burst,
    /// 1 to 20 (default 2).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=20))]
    passes: Option<usize>,
    /// Only variants whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    only: Option<String>,
    /// Timed runs per kernel (the median is reported).
    #[arg(long, default_value_t = 25, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    iters: usize,
    /// Untimed warm-up runs per kernel.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Write everything measured (device, date, command, every row) as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write every row as CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// GPU ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Print what would be benchmarked (families, sizes, variants) and exit; needs no GPU.
    #[arg(long)]
    list: bool,
}

/// The registered family called `name`, or the list of names.
pub fn family(name: &str) -> Result<&'static dyn DynFamily, String> {
    registry::find(name).ok_or_else(|| {
        format!(
            "unknown kernel family {name:?}: expected one of {}",
            registry::names()
        )
    })
}

pub fn run(args: Args) -> Result<(), String> {
    if let Some(dtype) = &args.dtype {
        return fp8(&args, dtype);
    }
    let e4m3_only = [
        (args.sustained.is_some(), "--sustained"),
        (args.passes.is_some(), "--passes"),
        (args.l2_resident, "--l2-resident"),
        (args.back_to_back, "--back-to-back"),
    ];
    if let Some((_, flag)) = e4m3_only.iter().find(|(on, _)| *on) {
        return Err(format!("{flag} goes with --dtype e4m3"));
    }
    if args.candidates.is_some() {
        return Err("--candidates goes with --dtype e4m3 (the 16-bit GEMM: swz tune hopper shapes --candidates)".into());
    }
    if args.llm {
        return Err(
            "--llm goes with --dtype e4m3 (the 16-bit LLM layers: swz tune hopper shapes --llm)"
                .into(),
        );
    }
    if args.chain {
        return chain16(&args);
    }
    let plan = plan(&args.family)?;
    if let Some(fam) = plan.iter().find(|f| f.size_of(2).k == 1) {
        if !args.shapes.is_empty() {
            return Err(format!(
                "--shapes: {}'s problems are not MxNxK (use --sizes N)",
                fam.name()
            ));
        }
    }
    let elems = args
        .elem
        .iter()
        .map(|e| crate::args::parse_elem(e))
        .collect::<Result<Vec<_>, _>>()?;
    let keep = |name: &str, elem: gpu_kernels::Elem| {
        (elems.is_empty() || elems.contains(&elem))
            && args.only.as_deref().is_none_or(|t| name.contains(t))
    };
    let cubes = |fam: &dyn DynFamily| -> Vec<frame::Size> {
        args.sizes.iter().map(|&n| fam.size_of(n)).collect()
    };
    // Every argument is checked before the planning below (the one step here that takes time).
    if !args.list {
        check_targets(args.json.as_ref(), args.csv.as_ref())?;
    }
    let shapes: Vec<Size> = crate::args::distinct(&args.shapes);
    // What each family plans at each named shape (no GPU: the planner's H100 numbers); a shape a family cannot
    // plan is refused here, before any GPU work.
    let mut planned = Vec::new();
    for fam in &plan {
        let mut per_shape = Vec::new();
        for &size in &shapes {
            if let Some(specs) = fam
                .planned_list(size)
                .map_err(|e| format!("--shapes: {}: {e}", fam.name()))?
            {
                per_shape.push((size, specs));
            }
        }
        planned.push(per_shape);
    }
    if args.list {
        for (fam, planned) in plan.iter().zip(&planned) {
            let mut sizes = cubes(*fam);
            sizes.extend(&shapes);
            let specs_run =
                shapes.is_empty() || !args.sizes.is_empty() || planned.len() < shapes.len();
            print_plan(*fam, &sizes, &keep, specs_run);
            for (size, specs) in planned {
                for (name, elem, why) in specs.iter().filter(|(n, e, _)| keep(n, *e)) {
                    outln!("  at {size}: {name} {elem} ({why})");
                }
            }
        }
        return Ok(());
    }
    let (gpu, cfg) = open(&args)?;
    outln!("device: {}", gpu.props());
    // Every spec runs (no filter, family sizes): compile them all on every core first.
    let filtered = args.only.is_some() || !elems.is_empty();
    if !filtered && (shapes.is_empty() || !args.sizes.is_empty()) {
        crate::cmd::verify::compile_all(&gpu, &plan)?;
    }
    let mut tables = Vec::new();
    for fam in &plan {
        let run =
            |t: gpu_kernels::Result<Vec<gpu_bench::bench::Table>>| t.map_err(|e| e.to_string());
        if shapes.is_empty() || !args.sizes.is_empty() {
            tables.extend(run(gpu_bench::tables::sweep(
                &gpu,
                *fam,
                &cubes(*fam),
                false,
                &keep,
                &cfg,
            ))?);
        }
        if !shapes.is_empty() {
            tables.extend(run(gpu_bench::tables::sweep(
                &gpu, *fam, &shapes, true, &keep, &cfg,
            ))?);
        }
    }
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    print_report(&report);
    write_outputs(&report, args.json.as_ref(), args.csv.as_ref())
}

/// The GPU `--device` names and the timing `--warmup` / `--iters` ask for.
fn open(args: &Args) -> Result<(Gpu, BenchConfig), String> {
    let gpu = Gpu::open(args.device).map_err(|e| e.to_string())?;
    let cfg = BenchConfig {
        warmup: args.warmup,
        iters: args.iters,
        ..BenchConfig::default()
    };
    Ok((gpu, cfg))
}

/// `flag` is for the GEMM families (gemm, hopper): any other family is refused in one line saying it does not
/// `does` (an unknown one as unknown).
fn gemm_only(args: &Args, flag: &str, does: &str) -> Result<(), String> {
    if matches!(args.family.as_str(), "gemm" | "hopper") {
        return Ok(());
    }
    family(&args.family)?;
    Err(format!(
        "{flag}: only the gemm and hopper families {does}, not {}",
        args.family
    ))
}

/// `swz bench gemm --dtype e4m3 --sustained MS`: bursts with the clock and power sampled
/// (`gpu_bench::hopper::fp8_sustained`).
fn sustained(
    gpu: &Gpu,
    shapes: &[Size],
    modes: &[gpu_kernels::fp8::ScaleMode],
    ms: u64,
    args: &Args,
) -> Result<(), String> {
    use gpu_bench::hopper::fp8_sustained as fs;
    let passes = args.passes.unwrap_or(2);
    outln!("sustained: bursts of {ms} ms, {passes} pass(es), after one warm-up burst");
    let (bursts, failed) = fs::run(
        gpu,
        shapes,
        modes,
        std::time::Duration::from_millis(ms),
        passes,
    )
    .map_err(|e| e.to_string())?;
    outln!(
        "{}",
        fs::markdown(&bursts, &failed, &gpu.props().to_string())
    );
    finish(&bursts, &failed, args)
}

/// `swz bench gemm --dtype e4m3 --shapes ...`: the FP8 GEMM against cuBLASLt (`gpu_bench::hopper::fp8_bench`).
/// Every argument is checked before the GPU is opened.
fn fp8(args: &Args, dtype: &str) -> Result<(), String> {
    if gpu_kernels::Elem::parse(dtype) != Some(gpu_kernels::Elem::E4M3) {
        return Err(format!(
            "--dtype: expected e4m3, got {dtype:?} (16-bit types: --elem)"
        ));
    }
    gemm_only(args, "--dtype e4m3", "run FP8")?;
    let mut shapes = args.shapes.clone();
    if args.llm {
        shapes.extend(gpu_kernels::hopper::planned::llm_shapes());
    }
    // A chain runs each problem it names (a layer may repeat); elsewhere a shape named twice runs once.
    let shapes = if args.chain {
        shapes
    } else {
        crate::args::distinct(&shapes)
    };
    if shapes.is_empty() || !args.sizes.is_empty() {
        return Err("--dtype e4m3 takes its problems as --shapes MxNxK or --llm".into());
    }
    if args.chain && args.llm {
        return Err("--chain takes its layers as --shapes MxNxK, not --llm".into());
    }
    if args.chain && args.candidates.is_some() {
        return Err("--candidates measures single problems, not --chain".into());
    }
    if args.chain && (args.l2_resident || args.back_to_back) {
        return Err("--l2-resident and --back-to-back measure single problems, not --chain".into());
    }
    if args.passes.is_some() && args.sustained.is_none() {
        return Err("--passes goes with --sustained".into());
    }
    if args.sustained.is_some() {
        let other = [
            (args.chain, "--chain"),
            (args.candidates.is_some(), "--candidates"),
            (args.l2_resident, "--l2-resident"),
            (args.back_to_back, "--back-to-back"),
        ];
        if let Some((_, flag)) = other.iter().find(|(on, _)| *on) {
            return Err(format!(
                "--sustained measures bursts, not interleaved rounds: drop {flag}"
            ));
        }
    }
    let modes = args
        .scale
        .iter()
        .map(|s| crate::args::parse_scale(s))
        .collect::<Result<Vec<_>, _>>()?;
    let dev = swizzle_core::plan::Device::H100;
    for &size in &shapes {
        for &m in &modes {
            let planned =
                gpu_kernels::hopper::fp8::ranked(size, m, &dev, 1 + args.candidates.unwrap_or(0))
                    .map_err(|e| format!("--shapes: {e}"))?;
            for (i, p) in planned.iter().enumerate().filter(|_| args.list) {
                let what = if i == 0 { "plan" } else { "runner-up" };
                outln!(
                    "at {size} per-{m}: {what} {} ({:.1} us predicted, bound: {})",
                    p.spec,
                    p.estimate.time_s * 1e6,
                    p.estimate.bound
                );
            }
        }
    }
    if args.list {
        return Ok(());
    }
    check_targets(args.json.as_ref(), None)?;
    let (gpu, mut cfg) = open(args)?;
    if args.chain {
        return chain(&gpu, &shapes, &modes, args, &cfg);
    }
    if let Some(ms) = args.sustained {
        return sustained(&gpu, &shapes, &modes, ms, args);
    }
    if args.l2_resident {
        // One buffer set (`bench::rotation` of factor 0), reused by every launch of both contestants.
        cfg.l2_factor = 0;
        outln!("operands: one set, reused by every launch (in the L2 where they fit)");
    }
    let timing = if args.back_to_back {
        outln!("timing: each contestant's launches back to back, per launch the span over them");
        gpu_bench::bench::Timing::BackToBack
    } else {
        gpu_bench::bench::Timing::EachLaunch
    };
    let (rows, failed) = gpu_bench::hopper::fp8_bench::run(
        &gpu,
        &shapes,
        &modes,
        args.rounds,
        &cfg,
        args.candidates.unwrap_or(0),
        timing,
    )
    .map_err(|e| e.to_string())?;
    outln!(
        "{}",
        gpu_bench::hopper::fp8_bench::markdown(&rows, &failed, &gpu.props().to_string())
    );
    finish(&rows, &failed, args)
}

/// `swz bench gemm --dtype e4m3 --chain --shapes ...`: each token count's layers as one chain
/// (`gpu_bench::hopper::chain`), per scaling mode.
fn chain(
    gpu: &Gpu,
    shapes: &[Size],
    modes: &[gpu_kernels::fp8::ScaleMode],
    args: &Args,
    cfg: &BenchConfig,
) -> Result<(), String> {
    let mut rows = Vec::new();
    for &mode in modes {
        rows.extend(
            gpu_bench::hopper::chain::run(gpu, shapes, Kind::E4m3(mode), args.rounds, cfg)
                .map_err(|e| e.to_string())?,
        );
    }
    print_chains(gpu, &rows, args)
}

/// `swz bench gemm --chain --shapes ... [--elem bf16|fp16]`: the 16-bit chains (bf16 unless --elem names
/// fp16), each problem checked before the GPU is opened.
fn chain16(args: &Args) -> Result<(), String> {
    gemm_only(args, "--chain", "chain layers")?;
    let ty = match args.elem.as_slice() {
        [] => gpu_kernels::Elem::BF16,
        [e] => crate::args::parse_elem(e)?,
        _ => return Err("--chain runs one element type: --elem bf16 or fp16".into()),
    };
    if !gpu_kernels::hopper::TYPES.contains(&ty) {
        return Err(format!(
            "--chain --elem: expected bf16 or fp16, got {ty} (e4m3: --dtype e4m3)"
        ));
    }
    if args.shapes.is_empty() || args.llm || !args.sizes.is_empty() {
        return Err("--chain takes its layers as --shapes MxNxK".into());
    }
    for &size in &args.shapes {
        gpu_kernels::hopper::check_dims(size).map_err(|e| format!("--shapes: {e}"))?;
    }
    if args.list {
        return Ok(());
    }
    check_targets(args.json.as_ref(), None)?;
    let (gpu, cfg) = open(args)?;
    let rows = gpu_bench::hopper::chain::run(&gpu, &args.shapes, Kind::Half(ty), args.rounds, &cfg)
        .map_err(|e| e.to_string())?;
    print_chains(&gpu, &rows, args)
}

/// The chains' table, and their JSON where --json asks.
fn print_chains(
    gpu: &Gpu,
    rows: &[gpu_bench::hopper::chain::ChainRow],
    args: &Args,
) -> Result<(), String> {
    outln!(
        "{}",
        gpu_bench::hopper::chain::markdown(rows, &gpu.props().to_string())
    );
    finish(rows, &[], args)
}

/// The end of an FP8 bench: everything measured to `--json` where asked, then an error naming the problems that
/// failed (the others were measured and printed).
fn finish<T: serde::Serialize + ?Sized>(
    rows: &T,
    failed: &[String],
    args: &Args,
) -> Result<(), String> {
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(rows).map_err(|e| e.to_string())?;
        crate::output::write_file("--json", path, &text)?;
        outln!("wrote {}", path.display());
    }
    if let Some(first) = failed.first() {
        return Err(format!(
            "{} problem(s) failed, first: {first}",
            failed.len()
        ));
    }
    Ok(())
}

/// Families `swz bench <family>` runs after the named one: `gemm` brings the Hopper (TMA + `wgmma`) GEMM's rows,
/// so one command prints every GEMM of the workspace against the cuBLAS of the same run.
const COMPANIONS: &[(&str, &[&str])] = &[("gemm", &["hopper"])];

/// The families `swz bench <name>` runs, in order: the family called `name`, then its companions; or the list of
/// names.
pub fn plan(name: &str) -> Result<Vec<&'static dyn DynFamily>, String> {
    let mut plan = vec![family(name)?];
    for (_, extra) in COMPANIONS.iter().filter(|(n, _)| *n == name) {
        for e in extra.iter() {
            plan.push(family(e)?);
        }
    }
    Ok(plan)
}

/// `--list`: one family's sizes and (with `specs_run`: its specs run at some size) the variants `keep` accepts,
/// one per line.
fn print_plan(
    fam: &dyn DynFamily,
    sizes: &[frame::Size],
    keep: &dyn Fn(&str, gpu_kernels::Elem) -> bool,
    specs_run: bool,
) {
    let sizes = if sizes.is_empty() {
        fam.bench_sizes()
    } else {
        sizes.to_vec()
    };
    let sizes: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
    outln!("{}: {} at {}", fam.name(), fam.about(), sizes.join(", "));
    if !specs_run {
        return;
    }
    for spec in fam.spec_infos() {
        if keep(&spec.name, spec.elem) {
            outln!("  {} {}", spec.name, spec.elem);
        }
    }
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

/// Refuse `--json` / `--csv` targets that could never be written, before any GPU work.
pub fn check_targets(json: Option<&PathBuf>, csv: Option<&PathBuf>) -> Result<(), String> {
    if let Some(path) = json {
        crate::output::check_target("--json", path)?;
    }
    if let Some(path) = csv {
        crate::output::check_target("--csv", path)?;
    }
    Ok(())
}

/// Write the report to the `--json` / `--csv` files (in place, through [`crate::output`]) and say so.
pub fn write_outputs(
    report: &Report,
    json: Option<&PathBuf>,
    csv: Option<&PathBuf>,
) -> Result<(), String> {
    if let Some(path) = json {
        crate::output::write_file("--json", path, &report.json())?;
        outln!("wrote {}", path.display());
    }
    if let Some(path) = csv {
        crate::output::write_file("--csv", path, &report.csv())?;
        outln!("wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_plans_name_registered_families() {
        let names = |n: &str| -> Vec<&str> { plan(n).unwrap().iter().map(|f| f.name()).collect() };
        assert_eq!(names("gemm"), ["gemm", "hopper"]);
        assert_eq!(names("hopper"), ["hopper"]);
        assert_eq!(names("transpose"), ["transpose"]);
        assert!(plan("nope").is_err_and(|e| e.contains("unknown kernel family")));
        for (name, extra) in COMPANIONS {
            assert!(
                registry::find(name).is_some() && extra.iter().all(|e| registry::find(e).is_some()),
                "{name}"
            );
        }
    }
}
