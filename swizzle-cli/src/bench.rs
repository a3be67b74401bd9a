//! `swz bench <family>`: the family's benchmark tables on this GPU (variant, block, time, rate, % of the peer
//! measured in the same run: a device-to-device copy for bandwidth families, cuBLAS for GEMMs). The families are
//! gpu-kernels' registry (`gpu_kernels::registry::FAMILIES`); nothing here knows one family from another. The
//! registry's bench plan may add companions (`swz bench gemm` also runs the Hopper GEMM); `--list` prints the
//! plan without a GPU. At problems named with `--shapes`, a family that plans per problem (the Hopper GEMM: the
//! spec swizzle-core's planner picks) runs its planned specs; `--list` shows them with the predicted time.

use gpu_kernels::bench::{BenchConfig, Report};
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
    /// Problems MxNxK for the GEMM families (gemm, hopper, matmul-l2), beside or instead of --sizes. The Hopper
    /// GEMM runs the spec planned for each (see --list).
    #[arg(long, value_delimiter = ',', value_parser = crate::args::parse_shape)]
    shapes: Vec<Size>,
    /// Only variants of these element types (f32, f16, bf16, ...; fp32/fp16 accepted).
    #[arg(long, value_delimiter = ',')]
    elem: Vec<String>,
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
    let shapes: Vec<Size> = args.shapes.clone();
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
    check_targets(args.json.as_ref(), args.csv.as_ref())?;
    let gpu = Gpu::open(args.device).map_err(|e| e.to_string())?;
    let cfg = BenchConfig {
        warmup: args.warmup,
        iters: args.iters,
        ..BenchConfig::default()
    };
    outln!("device: {}", gpu.props());
    let mut tables = Vec::new();
    for fam in &plan {
        let run =
            |t: gpu_kernels::Result<Vec<gpu_kernels::bench::Table>>| t.map_err(|e| e.to_string());
        if shapes.is_empty() || !args.sizes.is_empty() {
            tables.extend(run(fam.bench(&gpu, &cubes(*fam), &keep, &cfg))?);
        }
        if !shapes.is_empty() {
            tables.extend(run(fam.bench_planned(&gpu, &shapes, &keep, &cfg))?);
        }
    }
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    print_report(&report);
    write_outputs(&report, args.json.as_ref(), args.csv.as_ref())
}

/// The families `swz bench <name>` runs (the registry's bench plan), or the list of names.
pub fn plan(name: &str) -> Result<Vec<&'static dyn DynFamily>, String> {
    family(name)?;
    registry::bench_plan(name).ok_or_else(|| format!("no bench plan for {name:?}"))
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
