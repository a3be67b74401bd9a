//! `swz report`: the main job. One command, two modes, over every kernel family of gpu-kernels' registry:
//! - **no GPU** (no driver, or no device): a summary table of every family's shipped shared-memory layouts
//!   (family, kernel, layout, worst access cost, verdict; [`summary`]), then per family the layouts of its specs
//!   (spec, the layout and order lines of the header the kernel compiles with, the bank model's report on each
//!   smem access; bank maps with `--verbose`), then `no CUDA driver found — layout report only`;
//! - **GPU**: the same layout report, then the GPU part, laid out like it: a summary table first (per family: the
//!   variants and checks run, how many were wrong, the best ratio to the peer; [`gpu_summary`]), then per family
//!   its correctness pass (random data, poisoned output, ragged sizes, every output element compared with the
//!   host reference), then the benchmark tables with the peer measured in the same run, one size per family
//!   (inputs larger than the L2; every size is `swz bench`). Before the first launch
//!   every kernel is compiled on every core (kept in the CUBIN cache, so a second run compiles nothing); while it
//!   runs, progress goes to stderr, one bar (or line) per family and phase. A wrong result exits 1 after the
//!   whole report.
//!
//! `--json FILE` writes `{"mode", "layouts": [...], "verification": [...] or null, "benchmark": {...} or null}`
//! in both modes.

use crate::cmd::bench::{print_report, write_outputs};
use crate::memory;
use crate::output::Verdict;
use gpu_bench::bench::{BenchConfig, Report, Table};
use gpu_bench::progress::seconds;
use gpu_kernels::frame::verify::Verified;
use gpu_kernels::frame::{DynFamily, SpecInfo};
use gpu_kernels::registry::FAMILIES;
use gpu_kernels::{Error, Gpu};
use std::path::PathBuf;
use std::time::Instant;
use swizzle_core::bank::map::ascii;

mod summary;

#[derive(clap::Args)]
pub struct Args {
    /// Skip the GPU part even when a GPU is present (layout report only).
    #[arg(long)]
    layout_only: bool,
    /// Problem sizes for the benchmark tables (GPU mode): N for each family's size of side N; default: one size
    /// per family, its inputs larger than L2 (none for the one-tile fragment problems); every size of a family
    /// is `swz bench FAMILY`.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=65536))]
    sizes: Vec<u32>,
    /// Timed runs per kernel (GPU mode).
    #[arg(long, default_value_t = 10, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
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

pub fn run(args: Args) -> Result<Verdict, String> {
    let start = Instant::now();
    if let Some(path) = &args.json {
        crate::output::check_target("--json", path)?;
    }
    let (gpu, unusable) = if args.layout_only {
        (None, None)
    } else {
        open(args.device)?
    };
    // Why there is no GPU mode: no driver (the usual wording), or a driver that is there but unusable.
    let no_gpu = unusable.unwrap_or_else(|| "no CUDA driver found".to_string());
    match &gpu {
        Some(g) => outln!(
            "mode: GPU ({}) — layout report, verification and benchmark\n",
            g.props()
        ),
        None if args.layout_only => outln!("mode: layout report only (--layout-only)\n"),
        None => outln!("mode: {no_gpu} — layout report only\n"),
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
            write_json(path, mode, &rows, None, None)?;
        }
        if !args.layout_only {
            outln!("{no_gpu} — layout report only");
        }
        return Ok(Verdict::Clean);
    };
    let cfg = BenchConfig {
        iters: args.iters,
        ..BenchConfig::default()
    };
    let t = Instant::now();
    crate::cmd::verify::compile_all(&gpu, FAMILIES)?;
    let compile_s = t.elapsed().as_secs_f64();
    memory::phase_end("compile");
    let (mut verify_s, mut bench_s) = (0.0, 0.0);
    let mut runs = Vec::new();
    for fam in FAMILIES {
        let t = Instant::now();
        let verified = crate::cmd::verify::verify_family(&gpu, *fam)?;
        verify_s += t.elapsed().as_secs_f64();
        memory::phase_end(&format!("verify {}", fam.name()));
        let t = Instant::now();
        let sizes = bench_sizes(*fam, &args.sizes);
        let tables = if sizes.is_empty() {
            Vec::new()
        } else {
            gpu_bench::tables::sweep(&gpu, *fam, &sizes, false, &|_, _| true, &cfg)
                .map_err(|e| e.to_string())?
        };
        bench_s += t.elapsed().as_secs_f64();
        memory::phase_end(&format!("bench {}", fam.name()));
        runs.push(FamilyRun {
            fam: *fam,
            verified,
            tables,
        });
    }
    outln!("## GPU summary\n\n{}", gpu_summary(&runs));
    for r in &runs {
        verification_report(r);
    }
    let tables: Vec<Table> = runs.iter().flat_map(|r| r.tables.clone()).collect();
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    outln!("## Benchmarks (each table against its peer, measured in the same run)\n");
    if args.sizes.is_empty() {
        outln!(
            "One size per family, its inputs larger than the L2: {}. Every size of a family: `swz bench FAMILY`.\n",
            report_sizes_line()
        );
    }
    print_report(&report);
    write_outputs(&report, None, None)?;
    if let Some(path) = &args.json {
        let bench: serde_json::Value =
            serde_json::from_str(&report.json()).map_err(|e| e.to_string())?;
        write_json(
            path,
            mode,
            &rows,
            Some(verification_json(&runs)),
            Some(bench),
        )?;
    }
    let checks: usize = runs.iter().map(|r| r.verified.checks).sum();
    let wrong: usize = runs.iter().map(|r| r.verified.failures.len()).sum();
    let variants: usize = runs.iter().map(|r| r.fam.spec_infos().len()).sum();
    outln!(
        "mode: GPU — layouts reported, {variants} variants verified in {} families ({checks} checks, {wrong} \
         wrong), tables above",
        FAMILIES.len()
    );
    eprintln!(
        "swz report: {} in all: compile {}, verify {}, benchmark {}{}",
        seconds(start.elapsed().as_secs_f64()),
        seconds(compile_s),
        seconds(verify_s),
        seconds(bench_s),
        crate::verify::peak_memory()
    );
    Ok(if wrong == 0 {
        Verdict::Clean
    } else {
        Verdict::Conflicts(format!(
            "{wrong} of {checks} verifications failed (see the report)"
        ))
    })
}

/// The benchmark sizes of `fam` in the report: `--sizes` (each N as the family's size of side N), else the
/// family's one report size (none for the one-tile fragment problems).
fn bench_sizes(fam: &dyn DynFamily, sides: &[u32]) -> Vec<gpu_kernels::Size> {
    if sides.is_empty() {
        fam.report_sizes()
    } else {
        sides.iter().map(|&n| fam.size_of(n)).collect()
    }
}

/// `transpose 8192x8192, stencil 1x134217728, ...`: what the report's benchmark measures by default.
fn report_sizes_line() -> String {
    FAMILIES
        .iter()
        .flat_map(|f| {
            f.report_sizes()
                .into_iter()
                .map(|s| format!("{} {s}", f.name()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One family's GPU part: its verification and its benchmark tables.
struct FamilyRun {
    fam: &'static dyn DynFamily,
    verified: Verified,
    tables: Vec<Table>,
}

/// The best row of the family's tables against its peer, bounds left out ([`Row::bound`](gpu_bench::bench::Row::bound)):
/// (% of the peer, kernel, table title, peer name).
fn best_against_peer(tables: &[Table]) -> Option<(f64, String, String, String)> {
    tables
        .iter()
        .flat_map(|t| {
            t.rows
                .iter()
                .skip(1)
                .filter(|r| !r.bound)
                .map(move |r| (t, r))
        })
        .max_by(|(_, a), (_, b)| a.pct_of_ref.total_cmp(&b.pct_of_ref))
        .map(|(t, r)| {
            (
                r.pct_of_ref,
                r.kernel.clone(),
                t.title.clone(),
                t.reference.clone(),
            )
        })
}

/// The GPU part's summary: one row per family (variants, checks, wrong, the best ratio to the peer), then a
/// count line.
fn gpu_summary(runs: &[FamilyRun]) -> String {
    let mut s = String::from(
        "| family | variants | sizes | checks | wrong | best against its peer | peer |\n|---|---|---|---|---|---|---|\n",
    );
    for r in runs {
        let (best, peer) = match best_against_peer(&r.tables) {
            Some((pct, kernel, title, peer)) => (format!("{pct:.1}% ({kernel}, {title})"), peer),
            None => ("- (no benchmark sizes)".to_string(), "-".to_string()),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {best} | {peer} |\n",
            r.fam.name(),
            r.fam.spec_infos().len(),
            r.fam.verify_sizes().len(),
            r.verified.checks,
            r.verified.failures.len(),
        ));
    }
    let checks: usize = runs.iter().map(|r| r.verified.checks).sum();
    let wrong: usize = runs.iter().map(|r| r.verified.failures.len()).sum();
    s.push_str(&format!(
        "\n{checks} checks (variant x size), {wrong} wrong: random inputs, outputs poisoned first, every output \
         element compared with the host reference; best against its peer: the fastest variant's rate as a share of \
         the peer's (a device copy or cuBLAS) measured in the same run, bounds such as the transpose's plain copies \
         left out\n"
    ));
    s
}

/// The family's correctness pass: what was compared, and each failure.
fn verification_report(r: &FamilyRun) {
    outln!(
        "## {}: verification (random data, poisoned output, every element compared with the host)\n",
        r.fam.name()
    );
    let sizes: Vec<String> = r.fam.verify_sizes().iter().map(|s| s.to_string()).collect();
    outln!(
        "{} variants at {}: {} wrong ({} host references: one per size and class of variants that compute the \
         same function)\n",
        r.fam.spec_infos().len(),
        sizes.join(", "),
        r.verified.failures.len(),
        r.verified.references
    );
    for f in &r.verified.failures {
        outln!("FAILED {f}");
    }
    if !r.verified.failures.is_empty() {
        outln!();
    }
}

/// The verification as JSON: per family its variants, checks and failures.
fn verification_json(runs: &[FamilyRun]) -> serde_json::Value {
    runs.iter()
        .map(|r| {
            serde_json::json!({
                "family": r.fam.name(),
                "variants": r.fam.spec_infos().len(),
                "sizes": r.fam.verify_sizes().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "checks": r.verified.checks,
                "failures": r.verified.failures,
            })
        })
        .collect()
}

/// Write `{"mode", "layouts", "verification", "benchmark"}` to `path` and say so.
fn write_json(
    path: &std::path::Path,
    mode: &str,
    rows: &[summary::Row],
    verification: Option<serde_json::Value>,
    bench: Option<serde_json::Value>,
) -> Result<(), String> {
    let mut v = summary::json(rows);
    v["mode"] = mode.into();
    v["verification"] = verification.unwrap_or(serde_json::Value::Null);
    v["benchmark"] = bench.unwrap_or(serde_json::Value::Null);
    let text = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
    crate::output::write_file("--json", path, &(text + "\n"))?;
    outln!("wrote {}", path.display());
    Ok(())
}

/// `(Some(gpu), None)`; `(None, _)` when there is no driver or no device (the layout-only mode), with the
/// reason when the driver is there but unusable (it lacks a function: [`Error::BrokenLibrary`]); an error
/// otherwise.
fn open(device: usize) -> Result<(Option<Gpu>, Option<String>), String> {
    match Gpu::open(device) {
        Ok(g) => Ok((Some(g), None)),
        Err(Error::NoDriver | Error::NoDevice { .. }) => Ok((None, None)),
        Err(e @ Error::BrokenLibrary { .. }) => {
            Ok((None, Some(format!("no usable CUDA driver ({e})"))))
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_bench::bench::Row;

    fn row(kernel: &str, pct: f64, bound: bool) -> Row {
        Row {
            kernel: kernel.into(),
            block: "(32,8)".into(),
            elem: "f32".into(),
            rows: 8192,
            cols: 8192,
            bytes: 1 << 29,
            median_ms: 1.0,
            min_ms: 1.0,
            max_ms: 1.0,
            gbps: pct,
            pct_of_ref: pct,
            pct_of_ceiling: None,
            bound,
        }
    }

    #[test]
    fn the_best_against_the_peer_is_no_bound_and_no_peer() {
        let t = Table {
            title: "transpose 8192x8192 f32".into(),
            reference: "D2D copy".into(),
            reference_gbps: 100.0,
            unit: "GB/s".into(),
            ceiling: None,
            rows: vec![
                row("D2D copy", 100.0, false),
                row("copyVec16", 101.0, true),
                row("smem-swizzled", 96.0, false),
                row("naiveRow", 8.0, false),
            ],
        };
        let (pct, kernel, title, peer) = best_against_peer(std::slice::from_ref(&t)).unwrap();
        assert_eq!((pct, kernel.as_str()), (96.0, "smem-swizzled"));
        assert_eq!(
            (title.as_str(), peer.as_str()),
            (t.title.as_str(), "D2D copy")
        );
        let only_bounds = Table {
            rows: vec![row("D2D copy", 100.0, false), row("copyRow", 99.0, true)],
            ..t
        };
        assert!(best_against_peer(&[only_bounds]).is_none());
    }
}
