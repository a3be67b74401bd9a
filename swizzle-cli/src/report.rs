//! `swz report`: the main job. One command, two modes, over every kernel family of gpu-kernels' registry:
//! - **no GPU** (no driver, or no device): a summary table of every family's shipped shared-memory layouts
//!   (family, kernel, layout, worst access cost, verdict; [`summary`]), then per family the layouts of its specs
//!   (spec, the layout and order lines of the header the kernel compiles with, the bank model's report on each
//!   smem access; bank maps with `--verbose`), then `no CUDA driver found — layout report only`;
//! - **GPU**: the same layout report, then every family's correctness pass (random data, poisoned output, ragged
//!   sizes), then its benchmark tables with the peer measured in the same run.
//!
//! `--json FILE` writes `{"mode", "layouts": [...], "benchmark": {...} or null}` in both modes.

use crate::bench::{print_report, write_outputs};
use gpu_kernels::bench::{BenchConfig, Report};
use gpu_kernels::frame::{DynFamily, SpecInfo};
use gpu_kernels::registry::FAMILIES;
use gpu_kernels::{Error, Gpu};
use std::path::PathBuf;
use swizzle_core::bank::map::ascii;

mod summary;

#[derive(clap::Args)]
pub struct Args {
    /// Skip the GPU part even when a GPU is present (layout report only).
    #[arg(long)]
    layout_only: bool,
    /// Problem sizes for the benchmark tables (GPU mode): N for each family's size of side N.
    #[arg(long, value_delimiter = ',', default_values_t = [8192u32, 16384], value_parser = clap::value_parser!(u32).range(1..=65536))]
    sizes: Vec<u32>,
    /// Timed runs per kernel (GPU mode).
    #[arg(long, default_value_t = 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    iters: usize,
    /// Print the bank maps (32 rows each): the worst instruction of each conflicting access, the first of each
    /// conflict-free one.
    #[arg(long, short, visible_alias = "bank-maps")]
    verbose: bool,
    /// Write the report as JSON: the layouts (always, GPU or not) and, in GPU mode, the benchmark tables.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// GPU ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
}

pub fn run(args: Args) -> Result<(), String> {
    if let Some(path) = &args.json {
        crate::output::check_target("--json", path)?;
    }
    let gpu = if args.layout_only {
        None
    } else {
        open(args.device)?
    };
    match &gpu {
        Some(g) => outln!(
            "mode: GPU ({}) — layout report, verification and benchmark\n",
            g.props()
        ),
        None if args.layout_only => outln!("mode: layout report only (--layout-only)\n"),
        None => outln!("mode: no CUDA driver found — layout report only\n"),
    }
    let rows = summary::rows();
    outln!("## Summary\n\n{}", summary::table(&rows));
    if !args.verbose {
        outln!("(bank maps: `swz report --verbose`)\n");
    }
    for fam in FAMILIES {
        layout_report(*fam, args.verbose);
    }
    let mode = match (&gpu, args.layout_only) {
        (Some(_), _) => "gpu",
        (None, true) => "layout-only",
        (None, false) => "no-driver",
    };
    let Some(gpu) = gpu else {
        if let Some(path) = &args.json {
            write_json(path, mode, &rows, None)?;
        }
        if !args.layout_only {
            outln!("no CUDA driver found — layout report only");
        }
        return Ok(());
    };
    let cfg = BenchConfig {
        iters: args.iters,
        ..BenchConfig::default()
    };
    let mut tables = Vec::new();
    let mut verified = 0;
    for fam in FAMILIES {
        verified += verify(&gpu, *fam)?;
        let sizes: Vec<_> = args.sizes.iter().map(|&n| fam.size_of(n)).collect();
        tables.extend(
            fam.bench(&gpu, &sizes, &|_, _| true, &cfg)
                .map_err(|e| e.to_string())?,
        );
    }
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    outln!("## Benchmarks (each table against its peer, measured in the same run)\n");
    print_report(&report);
    write_outputs(&report, None, None)?;
    if let Some(path) = &args.json {
        let bench: serde_json::Value =
            serde_json::from_str(&report.json()).map_err(|e| e.to_string())?;
        write_json(path, mode, &rows, Some(bench))?;
    }
    outln!(
        "mode: GPU — layouts reported, {verified} variants verified in {} families, tables above",
        FAMILIES.len()
    );
    Ok(())
}

/// Write `{"mode", "layouts", "benchmark"}` to `path` and say so.
fn write_json(
    path: &std::path::Path,
    mode: &str,
    rows: &[summary::Row],
    bench: Option<serde_json::Value>,
) -> Result<(), String> {
    let mut v = summary::json(rows);
    v["mode"] = mode.into();
    v["benchmark"] = bench.unwrap_or(serde_json::Value::Null);
    let text = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
    crate::output::write_file("--json", path, &(text + "\n"))?;
    outln!("wrote {}", path.display());
    Ok(())
}

/// `Some(gpu)`, `None` when there is no driver or no device (the layout-only mode), an error otherwise.
fn open(device: usize) -> Result<Option<Gpu>, String> {
    match Gpu::open(device) {
        Ok(g) => Ok(Some(g)),
        Err(Error::NoDriver | Error::NoDevice { .. }) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

fn layout_report(fam: &dyn DynFamily, bank_maps: bool) {
    outln!("## {}: shared-memory layouts\n", fam.name());
    outln!(
        "{}. Predicted by swizzle-core's bank model on each spec's accesses as data (the family's thread-value \
         layouts); accesses marked conflict-free are also checked at compile time.\n",
        fam.about()
    );
    for spec in fam.spec_infos().iter().filter(|s| !s.accesses.is_empty()) {
        spec_report(spec, bank_maps);
    }
}

fn spec_report(spec: &SpecInfo, bank_maps: bool) {
    outln!("### {}", spec.display);
    for line in spec
        .header
        .lines()
        .filter(|l| l.trim_start().starts_with("using ") || l.trim_start().starts_with("// "))
        .skip(1)
    {
        outln!("header: {}", line.trim());
    }
    for a in &spec.accesses {
        let mut r = a.access.report(&a.smem);
        r.name = format!("{} {} smem {}", spec.name, spec.elem, a.label);
        out!("{r}");
        // --verbose: a conflicting access gets the bank map of its worst instruction (that is the evidence), a
        // conflict-free one its first instruction's.
        if !bank_maps {
            continue;
        }
        if let (Some((i, worst)), true) = (&r.worst, r.conflicts() > 0) {
            outln!(
                "bank map, worst {} instruction ({i}):\n{}",
                a.label,
                ascii(worst)
            );
        } else if let Some(first) = a
            .access
            .accesses(&a.smem)
            .ok()
            .and_then(|v| v.first().copied())
        {
            outln!(
                "bank map, first {} instruction:\n{}",
                a.label,
                ascii(&first.report())
            );
        }
    }
    outln!();
}

/// The family's correctness pass; the number of variants checked.
fn verify(gpu: &Gpu, fam: &dyn DynFamily) -> Result<usize, String> {
    outln!(
        "## {}: verification (random data, poisoned output, every element compared with the host)\n",
        fam.name()
    );
    let failures = fam.verify_all(gpu).map_err(|e| e.to_string())?;
    let n = fam.spec_infos().len();
    let sizes: Vec<String> = fam.verify_sizes().iter().map(|s| s.to_string()).collect();
    outln!(
        "{} variants at {}: {} wrong\n",
        n,
        sizes.join(", "),
        failures.len()
    );
    if failures.is_empty() {
        Ok(n)
    } else {
        Err(format!("verification failed:\n{}", failures.join("\n")))
    }
}
