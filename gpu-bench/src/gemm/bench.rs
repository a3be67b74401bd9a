//! The GEMM benchmark: per shape, input type and B layout, cuBLAS and every listed spec on the same buffers, in the
//! same run, timed with the crate's harness ([`crate::bench::time`]: warm-up, CUDA events per run, median).
//!
//! Reported per row: TFLOP/s (`2 M N K / median`), % of cuBLAS measured in this run, and % of the mma.sync
//! ceiling measured in this run ([`crate::gemm::peak::measure`]: a kernel that does nothing but mma.sync).

use crate::bench::rounds::{interleaved, interleaved_then};
use crate::bench::Align::{Left, Right};
use crate::bench::{spread, Markdown};
use crate::bench::{time, BenchConfig};
use crate::gemm::peak::{PeakBuffers, PeakProbe};
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::{table_name, HostElem};
use gpu_kernels::gemm::{BLayout, Cublas, GemmSpec, Problem, Variant};
use gpu_kernels::runtime::{Gpu, Kernel, Result};
use swizzle_core::Elem;
use swizzle_core::Size;

/// The benchmark shapes.
pub const SHAPES: [Size; 4] = [
    Size::mnk(4096, 4096, 4096),
    Size::mnk(8192, 8192, 8192),
    Size::mnk(16384, 16384, 1024),
    Size::mnk(4096, 4096, 1024),
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

/// cuBLAS and prepared GEMM kernels on one problem's buffers (seeded random A and B, one C for every output):
/// kernel 0 is cuBLAS, kernel `x > 0` the `(x - 1)`-th of [`Lineup::kernels`]. What every comparison launches.
pub struct Lineup<I: HostElem> {
    pub p: Problem,
    a: CudaSlice<I>,
    b: CudaSlice<I>,
    c: CudaSlice<I>,
    pub kernels: Vec<(Variant, Kernel)>,
}

impl<I: HostElem> Lineup<I> {
    /// The buffers of `p` beside `kernels` (built by the caller, e.g. from cut-down sources).
    pub fn new(gpu: &Gpu, p: &Problem, kernels: Vec<(Variant, Kernel)>) -> Result<Lineup<I>> {
        Ok(Lineup {
            p: *p,
            a: gpu.upload(&gpu_kernels::elem::random::<I>(p.a_len(), 1))?,
            b: gpu.upload(&gpu_kernels::elem::random::<I>(p.b_len(), 2))?,
            c: gpu.zeros::<I>(p.c_len())?,
            kernels,
        })
    }

    /// Each of `specs` for `p`'s B layout, input and output of type `I`, prepared.
    pub fn of_specs(gpu: &Gpu, p: &Problem, specs: &[GemmSpec]) -> Result<Lineup<I>> {
        let kernels = specs
            .iter()
            .map(|s| {
                let v = Variant::new(*s, p.b, I::ELEM, I::ELEM);
                v.prepare(gpu).map(|k| (v, k))
            })
            .collect::<Result<Vec<_>>>()?;
        Lineup::new(gpu, p, kernels)
    }

    /// How many kernels: cuBLAS and the prepared ones.
    pub fn count(&self) -> usize {
        1 + self.kernels.len()
    }

    /// Queue kernel `x` once.
    pub fn launch(&mut self, gpu: &Gpu, blas: &Cublas, x: usize) -> Result<()> {
        if x == 0 {
            blas.gemm(
                &self.p.cublas(I::ELEM, I::ELEM),
                &self.a,
                &self.b,
                &mut self.c,
            )
        } else {
            let (v, k) = &self.kernels[x - 1];
            v.launch(gpu, k, &self.p, &self.a, &self.b, &mut self.c)
        }
    }
}

/// Time cuBLAS and each of `specs` on one `m x n x k` problem with input (and output) type `I`.
pub fn measure<I: HostElem>(
    gpu: &Gpu,
    cfg: &BenchConfig,
    blas: &Cublas,
    p: &Problem,
    specs: &[GemmSpec],
) -> Result<Vec<Row>> {
    let mut lineup = Lineup::<I>::of_specs(gpu, p, specs)?;
    let ceiling = crate::gemm::peak::measure(gpu, cfg, I::ELEM, p.flops())?;
    let row = |kernel: String, s: crate::bench::Spread, reference_ms: f64| {
        let tflops = p.flops() / (s.median * 1e-3) / 1e12;
        Row {
            shape: p.size.mnk_text(),
            dtype: table_name(I::ELEM),
            b: p.b.name(),
            kernel,
            median_ms: s.median,
            min_ms: s.min,
            max_ms: s.max,
            tflops,
            pct_of_cublas: 100.0 * reference_ms / s.median,
            pct_of_mma_sync_ceiling: 100.0 * tflops / ceiling.tflops,
        }
    };
    let cublas = time(gpu, cfg, |_| lineup.launch(gpu, blas, 0))?;
    let mut rows = vec![row("cuBLAS".into(), cublas, cublas.median)];
    // The probe's launch does the problem's flops up to rounding of its iteration count: its own rate is exact.
    let mut probe_row = row(ceiling.name(I::ELEM), ceiling.stats, cublas.median);
    probe_row.tflops = ceiling.tflops;
    probe_row.pct_of_cublas = 100.0 * ceiling.tflops / rows[0].tflops;
    probe_row.pct_of_mma_sync_ceiling = 100.0;
    rows.push(probe_row);
    for (x, s) in specs.iter().enumerate() {
        let st = time(gpu, cfg, |_| lineup.launch(gpu, blas, x + 1))?;
        rows.push(row(s.name.to_string(), st, cublas.median));
    }
    Ok(rows)
}

/// [`measure`] for the run-time input type.
pub fn measure_dyn(
    gpu: &Gpu,
    cfg: &BenchConfig,
    blas: &Cublas,
    input: Elem,
    size: Size,
    b: BLayout,
    specs: &[GemmSpec],
) -> Result<Vec<Row>> {
    let p = Problem::new(size, b);
    match input {
        Elem::F16 => measure::<half::f16>(gpu, cfg, blas, &p, specs),
        Elem::BF16 => measure::<half::bf16>(gpu, cfg, blas, &p, specs),
        other => Err(gpu_kernels::elem::unsupported(
            "gemm input",
            other,
            &gpu_kernels::gemm::INPUTS,
        )),
    }
}

/// A markdown table of `rows`.
pub fn markdown(rows: &[Row]) -> String {
    let mut t = Markdown::new(&[
        ("shape", Left),
        ("dtype", Left),
        ("B", Left),
        ("kernel", Left),
        ("median ms", Right),
        ("TFLOP/s", Right),
        ("% of cuBLAS", Right),
        ("% of mma.sync ceiling", Right),
    ]);
    for r in rows {
        t.row([
            r.shape.clone(),
            r.dtype.to_string(),
            r.b.to_string(),
            r.kernel.clone(),
            format!("{:.3}", r.median_ms),
            format!("{:.1}", r.tflops),
            format!("{:.1}", r.pct_of_cublas),
            format!("{:.1}", r.pct_of_mma_sync_ceiling),
        ]);
    }
    t.finish()
}

/// One kernel's result over interleaved rounds ([`rounds`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct RoundsRow {
    pub shape: String,
    pub dtype: &'static str,
    pub b: &'static str,
    pub kernel: String,
    pub rounds: usize,
    /// Median over rounds of the round's median time.
    pub median_ms: f64,
    pub tflops: f64,
    /// Per round: cuBLAS's median / this kernel's median (same round), as %; median, min, max over rounds.
    pub pct_of_cublas_median: f64,
    pub pct_of_cublas_min: f64,
    pub pct_of_cublas_max: f64,
    /// Per round: this kernel's median / the first spec's median (same round) - 1, as %; median, min, max.
    /// Positive = slower than the first spec.
    pub slower_than_first_median: f64,
    pub slower_than_first_min: f64,
    pub slower_than_first_max: f64,
}

/// The median of `v` (not empty), through the crate's one median ([`spread`]).
fn median(v: &[f64]) -> f64 {
    spread(v).median
}

/// The smallest and the largest of `v` (not empty).
fn min_max(v: &[f64]) -> (f64, f64) {
    let s = spread(v);
    (s.min, s.max)
}

/// cuBLAS and `specs` timed in `n_rounds` interleaved rounds (each round: every kernel `cfg.iters` timed runs after
/// `cfg.warmup`, the order rotated by one each round), so that clock drift under sustained load falls on all kernels
/// alike; each comparison is a per-round ratio, summarised by its median and range.
pub fn rounds<I: HostElem>(
    gpu: &Gpu,
    cfg: &BenchConfig,
    blas: &Cublas,
    p: &Problem,
    specs: &[GemmSpec],
    n_rounds: usize,
) -> Result<Vec<RoundsRow>> {
    let mut lineup = Lineup::<I>::of_specs(gpu, p, specs)?;
    // times[kernel][round]; kernel 0 is cuBLAS.
    let n = lineup.count();
    let times = interleaved(gpu, cfg, n, n_rounds.max(1), |x, _| {
        lineup.launch(gpu, blas, x)
    })?;
    let mut out = Vec::new();
    for (x, t) in times.iter().enumerate() {
        let pct: Vec<f64> = t
            .iter()
            .zip(&times[0])
            .map(|(m, c)| 100.0 * c / m)
            .collect();
        let first = if n > 1 { &times[1] } else { &times[0] };
        let slower: Vec<f64> = t
            .iter()
            .zip(first)
            .map(|(m, f)| 100.0 * (m / f - 1.0))
            .collect();
        let med_ms = median(t);
        let (pmin, pmax) = min_max(&pct);
        let (smin, smax) = min_max(&slower);
        out.push(RoundsRow {
            shape: p.size.mnk_text(),
            dtype: table_name(I::ELEM),
            b: p.b.name(),
            kernel: if x == 0 {
                "cuBLAS".into()
            } else {
                specs[x - 1].name.to_string()
            },
            rounds: t.len(),
            median_ms: med_ms,
            tflops: p.flops() / (med_ms * 1e-3) / 1e12,
            pct_of_cublas_median: median(&pct),
            pct_of_cublas_min: pmin,
            pct_of_cublas_max: pmax,
            slower_than_first_median: median(&slower),
            slower_than_first_min: smin,
            slower_than_first_max: smax,
        });
    }
    Ok(out)
}

/// One kernel of [`peak_rounds`]: cuBLAS, a GEMM spec or an mma.sync probe.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeakRow {
    pub shape: String,
    pub dtype: &'static str,
    pub kernel: String,
    pub rounds: usize,
    pub median_ms: f64,
    /// Median over rounds of the round's TFLOP/s.
    pub tflops: f64,
    /// Per round: this kernel's TFLOP/s / cuBLAS's, as %; median, min, max.
    pub pct_of_cublas_median: f64,
    pub pct_of_cublas_min: f64,
    pub pct_of_cublas_max: f64,
    /// Per round: this kernel's TFLOP/s / the fastest probe's in that round, as %; median.
    pub pct_of_peak_median: f64,
    /// Probes only: the mean SM clock their blocks ran at (cycles / globaltimer), median over rounds, MHz.
    pub clock_mhz: Option<f64>,
}

/// cuBLAS, `specs` (B stored N x K) and the mma.sync `probes` in `n_rounds` interleaved rounds on problem `p`.
/// Each probe does the GEMM's flop count per launch (one block per SM), so all kernels run for about as long
/// and heat the card alike; per round every kernel's TFLOP/s is compared with cuBLAS's and with the best probe's.
pub fn peak_rounds<I: HostElem>(
    gpu: &Gpu,
    cfg: &BenchConfig,
    blas: &Cublas,
    p: &Problem,
    specs: &[GemmSpec],
    probes: &[PeakProbe],
    n_rounds: usize,
) -> Result<Vec<PeakRow>> {
    let mut lineup = Lineup::<I>::of_specs(gpu, p, specs)?;
    let mut probe_kernels = Vec::new();
    for pr in probes {
        let k = pr.prepare(gpu)?;
        let buf = PeakBuffers::new(gpu, pr.input, pr.threads)?;
        let iters = pr.iters_for(buf.blocks, p.flops());
        probe_kernels.push((k, buf, iters));
    }
    let s = specs.len();
    let n = 1 + s + probes.len();
    let mut clocks = vec![Vec::new(); probes.len()];
    let probe_cell = std::cell::RefCell::new(probe_kernels);
    let times = interleaved_then(
        gpu,
        cfg,
        n,
        n_rounds.max(1),
        |x, _| {
            if x <= s {
                lineup.launch(gpu, blas, x)
            } else {
                let mut pk = probe_cell.borrow_mut();
                let (k, buf, iters) = &mut pk[x - 1 - s];
                probes[x - 1 - s].launch(gpu, k, buf, *iters)
            }
        },
        |x| {
            if x > s {
                clocks[x - 1 - s].push(probe_cell.borrow()[x - 1 - s].1.clock_mhz(gpu)?);
            }
            Ok(())
        },
    )?;
    let pk = probe_cell.into_inner();
    let work = |x: usize| {
        if x <= s {
            p.flops()
        } else {
            let (_, buf, iters) = &pk[x - 1 - s];
            probes[x - 1 - s].flops(buf.blocks, *iters)
        }
    };
    // tflops[x][round]
    let tflops: Vec<Vec<f64>> = times
        .iter()
        .enumerate()
        .map(|(x, t)| t.iter().map(|ms| work(x) / (ms * 1e-3) / 1e12).collect())
        .collect();
    let rounds = times[0].len();
    let best_probe: Vec<f64> = (0..rounds)
        .map(|r| (s + 1..n).map(|x| tflops[x][r]).fold(0.0, f64::max))
        .collect();
    let mut out = Vec::new();
    for x in 0..n {
        let pct: Vec<f64> = (0..rounds)
            .map(|r| 100.0 * tflops[x][r] / tflops[0][r])
            .collect();
        let of_peak: Vec<f64> = (0..rounds)
            .map(|r| 100.0 * tflops[x][r] / best_probe[r])
            .collect();
        let (pmin, pmax) = min_max(&pct);
        out.push(PeakRow {
            shape: p.size.mnk_text(),
            dtype: table_name(I::ELEM),
            kernel: match x {
                0 => "cuBLAS".into(),
                x if x <= s => specs[x - 1].name.to_string(),
                x => probes[x - 1 - s].name(),
            },
            rounds,
            median_ms: median(&times[x]),
            tflops: median(&tflops[x]),
            pct_of_cublas_median: median(&pct),
            pct_of_cublas_min: pmin,
            pct_of_cublas_max: pmax,
            pct_of_peak_median: if probes.is_empty() {
                f64::NAN
            } else {
                median(&of_peak)
            },
            clock_mhz: (x > s).then(|| median(&clocks[x - 1 - s])),
        });
    }
    Ok(out)
}

/// A markdown table of [`peak_rounds`] rows.
pub fn peak_markdown(rows: &[PeakRow]) -> String {
    let mut t = Markdown::new(&[
        ("shape", Left),
        ("dtype", Left),
        ("kernel", Left),
        ("rounds", Right),
        ("median ms", Right),
        ("TFLOP/s", Right),
        ("% of cuBLAS: median (min-max)", Left),
        ("% of best mma.sync probe", Right),
        ("SM clock MHz", Right),
    ]);
    for r in rows {
        t.row([
            r.shape.clone(),
            r.dtype.to_string(),
            r.kernel.clone(),
            r.rounds.to_string(),
            format!("{:.3}", r.median_ms),
            format!("{:.1}", r.tflops),
            format!(
                "{:.1} ({:.1}-{:.1})",
                r.pct_of_cublas_median, r.pct_of_cublas_min, r.pct_of_cublas_max
            ),
            format!("{:.1}", r.pct_of_peak_median),
            r.clock_mhz.map_or("".into(), |c| format!("{c:.0}")),
        ]);
    }
    t.finish()
}

/// A markdown table of [`rounds`] rows.
pub fn rounds_markdown(rows: &[RoundsRow]) -> String {
    let mut t = Markdown::new(&[
        ("shape", Left),
        ("dtype", Left),
        ("B", Left),
        ("kernel", Left),
        ("rounds", Right),
        ("median ms", Right),
        ("TFLOP/s", Right),
        ("% of cuBLAS: median (min-max)", Left),
        ("vs first spec: median (min-max)", Left),
    ]);
    for r in rows {
        t.row([
            r.shape.clone(),
            r.dtype.to_string(),
            r.b.to_string(),
            r.kernel.clone(),
            r.rounds.to_string(),
            format!("{:.3}", r.median_ms),
            format!("{:.1}", r.tflops),
            format!(
                "{:.1} ({:.1}-{:.1})",
                r.pct_of_cublas_median, r.pct_of_cublas_min, r.pct_of_cublas_max
            ),
            format!(
                "{:+.1}% ({:+.1} to {:+.1})",
                r.slower_than_first_median, r.slower_than_first_min, r.slower_than_first_max
            ),
        ]);
    }
    t.finish()
}

/// One sustained burst (`swz tune gemm burst`): one kernel launched back to back for a fixed time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BurstRow {
    pub kernel: String,
    pub dtype: &'static str,
    pub b: &'static str,
    /// Which pass over the kernels (the passes alternate their order).
    pub pass: usize,
    pub start_unix_ms: u64,
    pub end_unix_ms: u64,
    pub launches: u64,
    pub tflops: f64,
    /// nvidia-smi's mean SM clock and board power over the burst (its first 500 ms skipped); `None` without
    /// nvidia-smi.
    pub sm_clock_mhz: Option<f64>,
    pub power_w: Option<f64>,
    /// Probes only: the SM clock their blocks measured (cycles / globaltimer).
    pub probe_clock_mhz: Option<f64>,
}

/// A markdown table of burst rows, one line per (dtype, B, kernel) in order of appearance: TFLOP/s median (min-max)
/// over the passes; per pass, TFLOP/s against the `reference` kernel's in the same pass (and cuBLAS's, when it
/// ran), median (min-max) over passes; the mean SM clock and power; TFLOP/s per GHz of that clock.
pub fn burst_markdown(rows: &[BurstRow], reference: &str) -> String {
    let vs_reference = format!("vs {reference}: median (min-max)");
    let mut t = Markdown::new(&[
        ("dtype", Left),
        ("B", Left),
        ("kernel", Left),
        ("passes", Right),
        ("TFLOP/s: median (min-max)", Left),
        (vs_reference.as_str(), Left),
        ("% of cuBLAS: median", Right),
        ("SM clock MHz", Right),
        ("power W", Right),
        ("TFLOP/s per GHz", Right),
    ]);
    let mut keys: Vec<(&str, &str, &str)> = Vec::new();
    for r in rows {
        let k = (r.dtype, r.b, r.kernel.as_str());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    for (dtype, b, kernel) in keys {
        let mine: Vec<&BurstRow> = rows
            .iter()
            .filter(|r| (r.dtype, r.b, r.kernel.as_str()) == (dtype, b, kernel))
            .collect();
        // This kernel's TFLOP/s over `other`'s in the same pass, as %.
        let against = |other: &str| -> Vec<f64> {
            mine.iter()
                .filter_map(|m| {
                    rows.iter()
                        .find(|r| {
                            (r.dtype, r.b, r.kernel.as_str(), r.pass) == (dtype, b, other, m.pass)
                        })
                        .map(|o| 100.0 * m.tflops / o.tflops)
                })
                .collect()
        };
        let tf: Vec<f64> = mine.iter().map(|r| r.tflops).collect();
        let (lo, hi) = min_max(&tf);
        let vs_ref: Vec<f64> = against(reference).iter().map(|p| p - 100.0).collect();
        let vs_ref_cell = if vs_ref.is_empty() {
            String::new()
        } else {
            let (a, z) = min_max(&vs_ref);
            format!("{:+.1}% ({:+.1} to {:+.1})", median(&vs_ref), a, z)
        };
        let vs_blas = against("cuBLAS");
        let clocks: Vec<f64> = mine.iter().filter_map(|r| r.sm_clock_mhz).collect();
        let powers: Vec<f64> = mine.iter().filter_map(|r| r.power_w).collect();
        let clock = mean(&clocks);
        let tf_med = median(&tf);
        t.row([
            dtype.to_string(),
            b.to_string(),
            kernel.to_string(),
            mine.len().to_string(),
            format!("{tf_med:.1} ({lo:.1}-{hi:.1})"),
            vs_ref_cell,
            if vs_blas.is_empty() {
                String::new()
            } else {
                format!("{:.1}", median(&vs_blas))
            },
            clock.map_or(String::new(), |c| format!("{c:.0}")),
            mean(&powers).map_or(String::new(), |p| format!("{p:.0}")),
            clock.map_or(String::new(), |c| format!("{:.1}", tf_med / c * 1000.0)),
        ]);
    }
    t.finish()
}

#[cfg(test)]
mod tests {
    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(super::median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(super::median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    fn row(kernel: &str, pass: usize, tflops: f64, clock: Option<f64>) -> super::BurstRow {
        super::BurstRow {
            kernel: kernel.into(),
            dtype: "fp16",
            b: "tn",
            pass,
            start_unix_ms: 0,
            end_unix_ms: 0,
            launches: 10,
            tflops,
            sm_clock_mhz: clock,
            power_w: clock.map(|_| 700.0),
            probe_clock_mhz: None,
        }
    }

    #[test]
    fn burst_table_pairs_kernels_by_pass() {
        let rows = [
            row("cuBLAS", 0, 800.0, Some(1300.0)),
            row("ref", 0, 400.0, Some(1500.0)),
            row("x", 0, 380.0, Some(1400.0)),
            row("x", 1, 400.0, Some(1420.0)),
            row("ref", 1, 410.0, Some(1520.0)),
            row("x", 2, 390.0, None),
        ];
        let t = super::burst_markdown(&rows, "ref");
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 2 + 3, "{t}");
        // x: passes 0 and 1 pair with ref (380/400 = -5.0%, 400/410 = -2.44%); pass 2 has no ref; cuBLAS only in
        // pass 0 (380/800 = 47.5%); clock = mean of its two samples (1410), 390 / 1.41 GHz = 276.6.
        assert_eq!(
            lines[4],
            "| fp16 | tn | x | 3 | 390.0 (380.0-400.0) | -3.7% (-5.0 to -2.4) | 47.5 | 1410 | 700 | 276.6 |",
            "{t}"
        );
        assert!(lines[3].starts_with("| fp16 | tn | ref | 2 | 405.0 (400.0-410.0) | +0.0% (+0.0 to +0.0) | 50.0 | 1510 |"), "{t}");
        assert!(
            lines[2].starts_with("| fp16 | tn | cuBLAS | 1 | 800.0 (800.0-800.0) | +100.0% (+100.0 to +100.0) | 100.0 | 1300 |"),
            "{t}"
        );
    }
}
