//! The Hopper GEMM at any shape against cuBLAS: the planned spec ([`gpu_kernels::hopper::planned`]) and the shipped one, in
//! interleaved rounds on the same buffers (`swz tune hopper shapes`).
//!
//! Per problem: random inputs (never zeros) in enough buffer sets that together they exceed twice the L2 (so a
//! small-M problem reads its weights from HBM, not from the previous launch's L2), cuBLAS's output as the
//! reference, every contestant's output (poisoned first) compared element-wise with it before any timing; then
//! `rounds` rounds, each contestant 2 warm-up + 5 timed launches per round (CUDA events, median), the order
//! rotated every round ([`rounds`]). Reported per problem: ours / cuBLAS for the planned and the shipped spec
//! (median of the per-round ratios), the model's predicted time beside the measured one (error %), and for
//! M <= 128 the HBM roofline: `X + W + C` bytes once, over the device-to-device copy rate measured at the start
//! of the same run, beside the share a bare read of the same bytes reaches ([`crate::hbm_read`], a
//! contestant of the same rounds): at a few tens of MB a launch's start and drain keep even that probe well below
//! the roofline, so it is the floor a kernel can be held to. Geomeans over the problems close each element type's
//! table.

use crate::bench::Align::{Left, Right};
use crate::bench::{self, rounds, BenchConfig, Markdown};
use crate::hbm_read::{HbmRead, ReadSets};
use crate::hopper::operands::{operands, Operands};
use crate::hopper::tune::write;
use crate::tables::time_peer;
use gpu_kernels::frame::{Family, Peer, Size};
use gpu_kernels::hopper::planned::{plan_device, shipped, Planned, LLM_LAYERS};
use gpu_kernels::hopper::{Cublas, HopperGemm, HopperSpec, SHIPPED};
use gpu_kernels::runtime::{Error, Gpu, Result};
use std::fmt::Write as _;
use std::path::Path;
use swizzle_core::plan::{Estimate, Problem};
use swizzle_core::Elem;

/// The roofline is reported up to this M (above it the GEMM is tensor-bound).
pub const ROOFLINE_MAX_M: u32 = 128;

/// The layer name of an `N x K` weight, when it is one of [`LLM_LAYERS`].
pub fn layer_name(n: u32, k: u32) -> Option<&'static str> {
    LLM_LAYERS
        .iter()
        .find(|&&(_, ln, lk)| (ln, lk) == (n, k))
        .map(|l| l.0)
}

/// Geometric mean (of ratios); `None` for an empty list or a non-positive value.
pub fn geomean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|&v| v <= 0.0 || !v.is_finite()) {
        return None;
    }
    Some((values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp())
}

/// Share of the HBM roofline: the least bytes (`X + W + C` once) at the measured copy rate, over the measured
/// time.
pub fn roofline(min_bytes: u64, copy_gbps: f64, measured_ms: f64) -> f64 {
    (min_bytes as f64 / (copy_gbps * 1e9)) / (measured_ms * 1e-3)
}

/// The model's error against a measurement, as a fraction (+0.1: predicted 10% slower than measured).
pub fn prediction_error(predicted_s: f64, measured_ms: f64) -> f64 {
    predicted_s / (measured_ms * 1e-3) - 1.0
}

/// One contestant of ours at one problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Ours {
    /// The spec's short name (`hopper-128x128x64-s6-sw128-c2-stsm`, the order when not group-m 8).
    pub spec: String,
    /// Median over rounds of the per-round time, ms.
    pub ms: f64,
    /// cuBLAS / ours per round: median, min, max.
    pub ratio: bench::Spread,
    /// The model's time for this spec, seconds.
    pub predicted_s: f64,
    /// What bounds it, by the model.
    pub bound: String,
    /// `predicted / measured - 1`.
    pub error: f64,
    /// Share of the HBM roofline (M <= [`ROOFLINE_MAX_M`]).
    pub roofline: Option<f64>,
    /// Relative Frobenius difference from cuBLAS's output.
    pub rel_diff: f64,
}

/// One problem's row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ShapeRow {
    /// Element type (`bf16`, `f16`).
    pub ty: String,
    /// `M x N x K` (`[M, N, K]` in JSON).
    #[serde(serialize_with = "Size::serialize_mnk")]
    pub size: Size,
    /// The layer, when the weight is one of [`LLM_LAYERS`].
    pub layer: Option<&'static str>,
    /// cuBLAS: median time over rounds, ms.
    pub cublas_ms: f64,
    /// cuBLAS's share of the HBM roofline (M <= [`ROOFLINE_MAX_M`]).
    pub cublas_roofline: Option<f64>,
    /// A bare read of the problem's least bytes ([`crate::hbm_read`]): median time over rounds, ms
    /// (M <= [`ROOFLINE_MAX_M`]).
    pub read_ms: Option<f64>,
    /// The bare read's share of the HBM roofline: the most a launch that reads these bytes reached.
    pub read_roofline: Option<f64>,
    /// The planned spec.
    pub planned: Ours,
    /// The shipped spec (the same numbers as `planned` when the plan is the shipped spec).
    pub shipped: Ours,
    /// Every spec of ours measured at this problem: the planned one, the shipped one, and the planner's next
    /// candidates (one per kernel shape), in the planner's order.
    pub measured: Vec<Ours>,
    /// The fastest measured spec's time over the planned spec's (1: the plan was the fastest measured).
    pub pick_vs_best: f64,
}

/// Geomeans of a set of rows.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Rows summarised.
    pub shapes: usize,
    /// Geomean of the planned spec's median ratios.
    pub planned: f64,
    /// Geomean of the shipped spec's median ratios.
    pub shipped: f64,
    /// The lowest planned ratio.
    pub planned_min: f64,
    /// The largest |prediction error| of the planned spec.
    pub worst_error: f64,
    /// The lowest [`ShapeRow::pick_vs_best`].
    pub pick_min: f64,
    /// Rows with a roofline (M <= [`ROOFLINE_MAX_M`]), and of them those where the plan reached 80% of it.
    pub roofline_rows: usize,
    pub roofline_80: usize,
    /// Over those rows: the bare read's share of the roofline, lowest and highest.
    pub read_roofline: Option<(f64, f64)>,
    /// Over those rows: the bare read's time over the plan's (1: the plan reads as fast as the bare read), lowest.
    pub planned_vs_read_min: Option<f64>,
}

/// The geomeans of `rows` (`None` when empty).
pub fn summarise(rows: &[ShapeRow]) -> Option<Summary> {
    let planned: Vec<f64> = rows.iter().map(|r| r.planned.ratio.median).collect();
    let shipped: Vec<f64> = rows.iter().map(|r| r.shipped.ratio.median).collect();
    Some(Summary {
        shapes: rows.len(),
        planned: geomean(&planned)?,
        shipped: geomean(&shipped)?,
        planned_min: planned.iter().copied().fold(f64::INFINITY, f64::min),
        worst_error: rows
            .iter()
            .map(|r| r.planned.error.abs())
            .fold(0.0, f64::max),
        pick_min: rows
            .iter()
            .map(|r| r.pick_vs_best)
            .fold(f64::INFINITY, f64::min),
        roofline_rows: rows.iter().filter(|r| r.planned.roofline.is_some()).count(),
        roofline_80: rows
            .iter()
            .filter(|r| r.planned.roofline.is_some_and(|x| x >= 0.8))
            .count(),
        read_roofline: extremes(rows.iter().filter_map(|r| r.read_roofline)),
        planned_vs_read_min: extremes(
            rows.iter()
                .filter_map(|r| r.read_ms.map(|t| t / r.planned.ms)),
        )
        .map(|x| x.0),
    })
}

/// The lowest and highest of `values` (`None` when empty).
fn extremes(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// The whole report: the rows and, per element type, their summary.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ShapesReport {
    /// `gpu.props()` as text.
    pub device: String,
    /// UTC date.
    pub date: String,
    /// The planner's device the predictions are for.
    pub plan_device: &'static str,
    /// Rounds per problem.
    pub rounds: usize,
    /// The device-to-device copy rate measured at the start, GB/s (read + written).
    pub copy_gbps: f64,
    /// Every problem, in the order measured.
    pub rows: Vec<ShapeRow>,
    /// Per element type: (type, summary).
    pub summaries: Vec<(String, Summary)>,
}

/// Timing per round and contestant: 2 warm-up + 5 timed launches.
pub const ROUND: BenchConfig = BenchConfig {
    warmup: 2,
    iters: 5,
    l2_factor: 2,
};

/// The spec's short name in tables: the family's name for it.
pub fn spec_label(spec: &HopperSpec) -> String {
    gpu_kernels::hopper::family::HOPPER.spec_name(spec)
}

/// Measure `shapes` x `types` as the module docs say; `rounds` >= 1. With `candidates` > 0, the planner's next
/// `candidates` kernel shapes ([`gpu_kernels::hopper::planned::ranked`]) run in the same rounds, so the plan can be compared
/// with the fastest measured. With `json`, writes the report there. Returns the markdown.
pub fn shapes_report(
    gpu: &Gpu,
    shapes: &[Size],
    types: &[Elem],
    n_rounds: usize,
    candidates: usize,
    json: Option<&Path>,
) -> Result<String> {
    if n_rounds == 0 {
        return Err(Error::Invalid("rounds: expected a positive count".into()));
    }
    let dev = plan_device(gpu.props());
    // Plan everything first: a shape the planner refuses fails before any GPU work.
    // (type, problem, plan, the shipped spec and the next candidates, each with its estimate)
    type Contest = (Elem, Size, Planned, Vec<(HopperSpec, Estimate)>);
    let mut plans: Vec<Contest> = Vec::new();
    for &ty in types {
        for &size in shapes {
            // One planner call: its pick (what plan_for returns) and the next candidates.
            let mut ranked = gpu_kernels::hopper::planned::ranked(size, ty, &dev, candidates + 1)?;
            let (spec, estimate) = ranked.remove(0);
            let plan = Planned {
                spec,
                estimate,
                device: dev.name,
            };
            let others = std::iter::once(shipped(size, ty, &dev)?)
                .chain(ranked)
                .collect();
            plans.push((ty, size, plan, others));
        }
    }
    let blas = Cublas::new(gpu)?;
    let probe = HbmRead::new(gpu)?;
    let copy = Peer::CopyD2D { bytes: 256 << 20 };
    let copy_cfg = BenchConfig {
        warmup: 3,
        iters: 20,
        l2_factor: 2,
    };
    let copy_gbps = copy
        .measure()
        .rate(time_peer(gpu, &copy, &copy_cfg)?.median);
    note!(
        "{}; D2D copy {copy_gbps:.0} GB/s; planning for {}",
        gpu.props(),
        dev.name
    );
    // Every distinct spec compiled (and its ptxas log checked) before anything is measured.
    let mut compiled: Vec<HopperGemm> = Vec::new();
    for spec in plans
        .iter()
        .flat_map(|(_, _, p, others)| std::iter::once(p.spec).chain(others.iter().map(|o| o.0)))
    {
        if !compiled.iter().any(|g| g.spec == spec) {
            let g = HopperGemm::new(gpu, spec)
                .map_err(|e| Error::Invalid(format!("{} ({spec}): {e}", spec_label(&spec))))?;
            note!("compiled {} {}", spec_label(&spec), spec.ty);
            compiled.push(g);
        }
    }
    let mut rows = Vec::new();
    for (i, (ty, size, plan, others)) in plans.into_iter().enumerate() {
        let Size { m, n, k } = size;
        let shipped_spec = SHIPPED.with_ty(ty);
        let find = |s: &HopperSpec| compiled.iter().find(|g| g.spec == *s).expect("compiled");
        // Contestants: cuBLAS, the plan, the shipped spec unless the plan is it, the other candidates.
        let mut contestants = vec![(plan.spec, plan.estimate)];
        for (s, e) in others {
            if !contestants.iter().any(|(x, _)| *x == s) {
                contestants.push((s, e));
            }
        }
        let specs: Vec<HopperSpec> = contestants.iter().map(|(s, _)| *s).collect();
        let ours: Vec<&HopperGemm> = specs.iter().map(find).collect();
        // Enough buffer sets of the problem that together they exceed the L2 `ROUND.l2_factor` times.
        let set_bytes = 2 * (size.mk_len() + size.nk_len() + size.mn_len());
        let count = bench::rotation(set_bytes, gpu.props().l2_bytes, ROUND.l2_factor);
        let mut sets = operands(gpu, &blas, ty, size, 1000 + 2 * i as u64, count)?;
        let diffs = ours
            .iter()
            .map(|g| sets.verify(gpu, g))
            .collect::<Result<Vec<f64>>>()?;
        let problem = Problem::new(size, ty);
        let mut reads = (m <= ROOFLINE_MAX_M)
            .then(|| probe.sets(gpu, problem.min_bytes(), ROUND.l2_factor))
            .transpose()?;
        let mut field = Field {
            sets: sets.as_mut(),
            blas: &blas,
            ours: &ours,
            read: reads.as_mut().map(|r| (&probe, r)),
        };
        for who in 0..field.count() {
            bench::time(gpu, &ROUND, |j| field.run(gpu, who, j))?;
        }
        let ms = rounds::interleaved(gpu, &ROUND, field.count(), n_rounds, |who, j| {
            field.run(gpu, who, j)
        })?;
        let roof =
            |t: f64| (m <= ROOFLINE_MAX_M).then(|| roofline(problem.min_bytes(), copy_gbps, t));
        let cublas_ms = bench::spread(&ms[0]).median;
        // The bare read, when it ran, is the last contestant.
        let read_ms = reads
            .is_some()
            .then(|| bench::spread(&ms[specs.len() + 1]).median);
        let ours_row =
            |idx: usize, (spec, est): &(HopperSpec, Estimate), diff: f64| -> Result<Ours> {
                let t = bench::spread(&ms[idx]).median;
                Ok(Ours {
                    spec: spec_label(spec),
                    ms: t,
                    ratio: bench::spread(&rounds::ratios(&ms[0], &ms[idx])),
                    predicted_s: est.time_s,
                    bound: est.bound.to_string(),
                    error: prediction_error(est.time_s, t),
                    roofline: roof(t),
                    rel_diff: diff,
                })
            };
        let measured = contestants
            .iter()
            .zip(&diffs)
            .enumerate()
            .map(|(j, (s, &d))| ours_row(j + 1, s, d))
            .collect::<Result<Vec<Ours>>>()?;
        let planned = measured[0].clone();
        let at = |s: &HopperSpec| specs.iter().position(|x| x == s).expect("measured");
        let shipped = measured[at(&shipped_spec)].clone();
        let best_ms = measured.iter().map(|o| o.ms).fold(f64::INFINITY, f64::min);
        note!(
            "{ty} {m}x{n}x{k}: planned {} {:.1}%, shipped {:.1}% of cuBLAS ({cublas_ms:.4} ms); predicted {:+.0}%",
            planned.spec,
            100.0 * planned.ratio.median,
            100.0 * shipped.ratio.median,
            100.0 * planned.error
        );
        rows.push(ShapeRow {
            ty: ty.to_string(),
            size,
            layer: layer_name(n, k),
            cublas_ms,
            cublas_roofline: roof(cublas_ms),
            read_ms,
            read_roofline: read_ms.and_then(roof),
            pick_vs_best: best_ms / planned.ms,
            planned,
            shipped,
            measured,
        });
    }
    let summaries: Vec<(String, Summary)> = types
        .iter()
        .filter_map(|ty| {
            let mine: Vec<ShapeRow> = rows.iter().filter(|r| r.ty == ty.name()).cloned().collect();
            summarise(&mine).map(|s| (ty.to_string(), s))
        })
        .collect();
    let report = ShapesReport {
        device: gpu.props().to_string(),
        date: bench::today_utc(),
        plan_device: dev.name,
        rounds: n_rounds,
        copy_gbps,
        rows,
        summaries,
    };
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&report).expect("plain fields");
        write(path, text.as_bytes())?;
    }
    Ok(markdown(&report))
}

/// One problem's contestants: cuBLAS (0), ours (1..=ours.len()), then the bare read when it runs.
struct Field<'a> {
    sets: &'a mut dyn Operands,
    blas: &'a Cublas,
    ours: &'a [&'a HopperGemm],
    read: Option<(&'a HbmRead, &'a mut ReadSets)>,
}

impl Field<'_> {
    fn count(&self) -> usize {
        self.ours.len() + 1 + usize::from(self.read.is_some())
    }

    /// Queue contestant `who`'s `i`-th launch (each walks its own buffer sets).
    fn run(&mut self, gpu: &Gpu, who: usize, i: usize) -> Result<()> {
        match &mut self.read {
            Some((probe, reads)) if who == self.ours.len() + 1 => probe.run(gpu, reads, i),
            _ if who == 0 => self.sets.run_cublas(self.blas, i),
            _ => self.sets.run_ours(gpu, self.ours[who - 1], i),
        }
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", 100.0 * v))
}

/// The report as markdown: one table per element type, then its geomeans.
pub fn markdown(r: &ShapesReport) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "device: {}\ndate: {}\nplanner device: {}; D2D copy {:.0} GB/s; {} interleaved rounds, each contestant {} \
         warm-up + {} timed launches per round; ratio = cuBLAS / ours per round, median\n",
        r.device, r.date, r.plan_device, r.copy_gbps, r.rounds, ROUND.warmup, ROUND.iters
    );
    for (ty, s) in &r.summaries {
        let _ = writeln!(md, "## {ty}\n");
        let mut table = Markdown::new(&[
            ("layer", Left),
            ("M x N x K", Left),
            ("planned spec", Left),
            ("**planned / cuBLAS**", Right),
            ("shipped / cuBLAS", Right),
            ("cuBLAS us", Right),
            ("planned us", Right),
            ("predicted us (error)", Right),
            ("shipped predicted us (error)", Right),
            ("bound", Left),
            ("HBM roofline: planned / shipped / cuBLAS / bare read", Left),
            ("fastest measured of ours (planned / it)", Left),
        ]);
        for row in r.rows.iter().filter(|x| &x.ty == ty) {
            let Size { m, n, k } = row.size;
            let (p, sh) = (&row.planned, &row.shipped);
            let roof = if m <= ROOFLINE_MAX_M {
                format!(
                    "{} / {} / {} / {}",
                    pct(p.roofline),
                    pct(sh.roofline),
                    pct(row.cublas_roofline),
                    pct(row.read_roofline)
                )
            } else {
                "-".into()
            };
            let fastest = row
                .measured
                .iter()
                .min_by(|a, b| a.ms.total_cmp(&b.ms))
                .map_or("-", |o| o.spec.as_str());
            table.row([
                row.layer.unwrap_or("-").to_string(),
                format!("{m}x{n}x{k}"),
                p.spec.clone(),
                p.ratio.percent_cell(),
                format!("{:.1}%", 100.0 * sh.ratio.median),
                format!("{:.1}", 1e3 * row.cublas_ms),
                format!("{:.1}", 1e3 * p.ms),
                format!("{:.1} ({:+.0}%)", 1e6 * p.predicted_s, 100.0 * p.error),
                format!("{:.1} ({:+.0}%)", 1e6 * sh.predicted_s, 100.0 * sh.error),
                p.bound.to_string(),
                roof,
                format!(
                    "{fastest} ({:.1}% of {})",
                    100.0 * row.pick_vs_best,
                    row.measured.len()
                ),
            ]);
        }
        md.push_str(&table.finish());
        let _ = writeln!(
            md,
            "\n{ty}: geomean over {} shapes: planned **{:.1}%**, shipped {:.1}% of cuBLAS; lowest planned {:.1}%; \
             worst planned prediction error {:.0}%; the plan at worst {:.1}% of the fastest spec measured\n",
            s.shapes,
            100.0 * s.planned,
            100.0 * s.shipped,
            100.0 * s.planned_min,
            100.0 * s.worst_error,
            100.0 * s.pick_min
        );
        if let (Some((lo, hi)), Some(vs)) = (s.read_roofline, s.planned_vs_read_min) {
            let _ = writeln!(
                md,
                "{ty}, M <= {ROOFLINE_MAX_M}: the plan at 80% or more of the HBM roofline on {} of {}; a bare read \
                 of the same bytes reaches {:.1}-{:.1}% of it; the plan at worst {:.1}% of the bare read's speed\n",
                s.roofline_80,
                s.roofline_rows,
                100.0 * lo,
                100.0 * hi,
                100.0 * vs
            );
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_named_by_their_weight() {
        assert_eq!(layer_name(4096, 14336), Some("8B down"));
        assert_eq!(layer_name(4096, 4097), None);
    }

    #[test]
    fn geomean_roofline_and_error() {
        assert!((geomean(&[0.5, 2.0]).unwrap() - 1.0).abs() < 1e-12);
        assert!((geomean(&[0.9, 0.9, 0.9]).unwrap() - 0.9).abs() < 1e-12);
        assert!((geomean(&[1.0, 8.0]).unwrap() - 8f64.sqrt()).abs() < 1e-12);
        assert_eq!(geomean(&[]), None);
        assert_eq!(geomean(&[1.0, 0.0]), None);
        // 33.5 MB at 3000 GB/s is 11.17 us; measured 13.96 us: 80%.
        let r = roofline(33_500_000, 3000.0, 0.013_958_333);
        assert!((r - 0.8).abs() < 1e-6, "{r}");
        assert!((prediction_error(11e-6, 0.010) - 0.1).abs() < 1e-12);
        assert!((prediction_error(9e-6, 0.010) + 0.1).abs() < 1e-12);
    }

    fn row(ty: &str, planned: f64, shipped: f64, err: f64) -> ShapeRow {
        let ours = |ratio: f64| Ours {
            spec: "s".into(),
            ms: 1.0,
            ratio: bench::spread(&[ratio]),
            predicted_s: 1e-3,
            bound: "tensor".into(),
            error: err,
            roofline: None,
            rel_diff: 0.0,
        };
        ShapeRow {
            ty: ty.into(),
            size: Size::mnk(16, 4096, 4096),
            layer: None,
            cublas_ms: 1.0,
            cublas_roofline: None,
            read_ms: None,
            read_roofline: None,
            planned: ours(planned),
            shipped: ours(shipped),
            measured: vec![ours(planned), ours(shipped)],
            pick_vs_best: planned / planned.max(shipped),
        }
    }

    /// The markdown of a bf16 report of `rows` with summary `s`.
    fn bf16_markdown(rows: &[ShapeRow], s: Summary) -> String {
        markdown(&ShapesReport {
            device: "d".into(),
            date: "today".into(),
            plan_device: "h100",
            rounds: 5,
            copy_gbps: 3000.0,
            rows: rows.to_vec(),
            summaries: vec![("bf16".into(), s)],
        })
    }

    #[test]
    fn summary_takes_geomeans_the_minimum_and_the_worst_error() {
        let rows = [row("bf16", 1.25, 0.5, -0.3), row("bf16", 0.8, 0.5, 0.1)];
        let s = summarise(&rows).unwrap();
        assert!((s.planned - 1.0).abs() < 1e-12 && (s.shipped - 0.5).abs() < 1e-12);
        assert_eq!((s.shapes, s.planned_min, s.worst_error), (2, 0.8, 0.3));
        assert!(summarise(&[]).is_none());
        let md = bf16_markdown(&rows, s);
        assert!(
            md.contains("geomean over 2 shapes: planned **100.0%**, shipped 50.0%"),
            "{md}"
        );
        assert!(
            md.contains("| 16x4096x4096 |") && md.contains("**125.0%**"),
            "{md}"
        );
        assert!(!md.contains("bare read of the same bytes"), "{md}");
    }

    #[test]
    fn summary_counts_the_roofline_and_the_bare_read() {
        // The plan at 85% and 70% of the roofline; the bare read at 90% and 75%, taking 0.9 and 0.8 of the plan's time.
        let mut rows = [
            row("bf16", 1.0, 1.0, 0.0),
            row("bf16", 1.0, 1.0, 0.0),
            row("bf16", 1.0, 1.0, 0.0),
        ];
        for (r, (roof, read_roof, read_ms)) in
            rows.iter_mut().zip([(0.85, 0.9, 0.9), (0.7, 0.75, 0.8)])
        {
            r.planned.roofline = Some(roof);
            r.read_roofline = Some(read_roof);
            r.read_ms = Some(read_ms);
        }
        let s = summarise(&rows).unwrap();
        assert_eq!((s.roofline_rows, s.roofline_80), (2, 1));
        assert_eq!(s.read_roofline, Some((0.75, 0.9)));
        assert_eq!(s.planned_vs_read_min, Some(0.8));
        let md = bf16_markdown(&rows, s);
        assert!(
            md.contains(
                "the plan at 80% or more of the HBM roofline on 1 of 2; a bare read of the same bytes reaches \
                 75.0-90.0% of it; the plan at worst 80.0% of the bare read's speed"
            ),
            "{md}"
        );
        assert!(md.contains("85.0% / - / - / 90.0%"), "{md}");
    }
}
