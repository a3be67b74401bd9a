//! The e4m3 Hopper GEMM against cuBLASLt's FP8 GEMM at any shape and scaling, in interleaved rounds on the same
//! buffers (`swz bench gemm --dtype e4m3 --shapes ...`).
//!
//! Per problem and mode: random e4m3 inputs and fp32 scales in enough buffer sets that together they exceed
//! `cfg.l2_factor` times the L2 (so small-M problems read their weights from HBM; factor 0: one set, which every
//! launch reuses, so operands that fit stay in the L2); both contestants' outputs (poisoned first)
//! checked against the fp64 host reference on sampled rows before any timing; then `rounds` rounds, each
//! contestant `cfg.warmup` untimed + `cfg.iters` timed launches (CUDA events, median; or, [`Timing::BackToBack`],
//! the span of the launches run back to back over their count), the order rotated every round
//! ([`crate::bench::rounds`]). The peer runs the same scaling mode where this GPU's cuBLASLt accepts it,
//! else per-tensor scaling (said in the row). At M <= [`ROOFLINE_MAX_M`] a bare read of the problem's least bytes
//! (X, W, C and the scales once: [`crate::hbm_read`]) is a contestant of the same rounds: the floor a
//! memory-bound launch can be held to. Reported: the median of the per-round ratios with its range, the plan,
//! the planner's prediction and its error beside the measured time, and ours against the bare read.
//!
//! With `candidates` > 0 the planner's next kernel shapes at each problem ([`ranked`]) are contestants of the
//! same rounds too, each checked like the plan first: what the model's ranking is tested on.
//!
//! Every planned spec is compiled first, on every host thread at once, before anything is timed.

use crate::bench::Align::{Left, Right};
use crate::bench::Timing;
use crate::bench::{self, rounds, BenchConfig, Markdown};
use crate::hbm_read::HbmRead;
use crate::hopper::shapes::{geomean, layer_name, prediction_error, spec_label, ROOFLINE_MAX_M};
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::E4m3;
use gpu_kernels::fp8::reference::{self, compare, Bound};
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::hopper::fp8::{check_on, ranked};
use gpu_kernels::hopper::planned::plan_device;
use gpu_kernels::hopper::{check_device, compile_cached, HopperGemm};
use gpu_kernels::runtime::cublas::Fp8Plan;
use gpu_kernels::runtime::{CublasLt, Fp8Call, Gpu, Result};
use gpu_kernels::Size;
use swizzle_core::plan::Problem;
use swizzle_core::Elem;

/// One measured problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Fp8Row {
    pub size: Size,
    pub mode: String,
    /// The scaling the peer ran (the same, or `tensor` where cuBLASLt refused the mode).
    pub peer_mode: String,
    pub spec: String,
    /// What bounds the plan, by the model.
    pub bound: String,
    pub ours_us: f64,
    pub peer_us: f64,
    pub ours_tflops: f64,
    pub peer_tflops: f64,
    /// Median, min and max over rounds of peer time / ours (> 1: ours faster).
    pub ratio: bench::Spread,
    pub predicted_us: f64,
    /// `predicted / measured - 1`.
    pub error: f64,
    /// Our normwise error against the host reference on the sampled rows.
    pub normwise: f64,
    /// cuBLASLt in the same mode with fast accumulation (no promotion, the accumulation of our per-tensor and
    /// per-row kernels), where it plans: its median time and peer / ours over the rounds.
    pub fast_us: Option<f64>,
    pub fast_ratio: Option<bench::Spread>,
    /// M <= [`ROOFLINE_MAX_M`]: a bare read of the problem's least bytes, its median time, and read / ours over
    /// the rounds (1: ours as fast as the bare read).
    pub read_us: Option<f64>,
    pub read_ratio: Option<bench::Spread>,
    /// The planner's runners-up measured in the same rounds (`candidates` of [`run`]), fastest predicted first.
    pub candidates: Vec<Fp8Candidate>,
}

/// One of the planner's runners-up at a problem, measured beside the plan.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Fp8Candidate {
    pub spec: String,
    pub bound: String,
    pub predicted_us: f64,
    pub us: f64,
    /// Median, min and max over rounds of cuBLASLt's time / this one's.
    pub ratio: bench::Spread,
    /// Median, min and max over rounds of the plan's time / this one's (> 1: the runner-up faster).
    pub vs_plan: bench::Spread,
}

/// One operand set of an e4m3 problem: A, B and a bf16 C.
pub struct Set {
    pub a: CudaSlice<E4m3>,
    pub b: CudaSlice<E4m3>,
    pub c: CudaSlice<half::bf16>,
}

/// Copies of the host operands `(x, w)` of `size`, with a bf16 C each, in enough sets that together they exceed
/// `l2_factor` times the L2 ([`bench::rotation`]; factor 0: one set).
pub fn rotated_sets(
    gpu: &Gpu,
    size: Size,
    (x, w): (&[E4m3], &[E4m3]),
    l2_factor: usize,
) -> Result<Vec<Set>> {
    let set_bytes = size.mk_len() + size.nk_len() + 2 * size.mn_len();
    let count = bench::rotation(set_bytes, gpu.props().l2_bytes, l2_factor);
    (0..count)
        .map(|_| {
            Ok(Set {
                a: gpu.upload(x)?,
                b: gpu.upload(w)?,
                c: gpu.zeros::<half::bf16>(size.mn_len())?,
            })
        })
        .collect()
}

/// Measure the planned e4m3 kernel (and its next `candidates` kernel shapes by the model) against cuBLASLt at
/// every `shape` in every `mode`: the rows measured, and one line for each problem that failed (its check, a
/// launch), the others measured still.
pub fn run(
    gpu: &Gpu,
    shapes: &[Size],
    modes: &[ScaleMode],
    n_rounds: usize,
    cfg: &BenchConfig,
    candidates: usize,
    timing: Timing,
) -> Result<(Vec<Fp8Row>, Vec<String>)> {
    check_device(gpu.props())?;
    let dev = plan_device(gpu.props());
    precompile(shapes, modes, &dev, candidates)?;
    let lt = CublasLt::new(gpu)?;
    let read = HbmRead::new(gpu)?;
    let (mut out, mut failed) = (Vec::new(), Vec::new());
    for (si, &size) in shapes.iter().enumerate() {
        for &mode in modes {
            match one(
                gpu,
                (&lt, &read),
                &dev,
                (size, mode, si),
                (n_rounds, timing),
                cfg,
                candidates,
            ) {
                Ok(row) => {
                    // Each row as it is measured (a run cut short keeps what it measured).
                    let opt = |us: Option<f64>, q: Option<bench::Spread>| match (us, q) {
                        (Some(us), Some(q)) => format!("{us:.1} us ({:.1}%)", 100.0 * q.median),
                        _ => "-".into(),
                    };
                    eprintln!(
                        "{size} per-{mode}: ours {:.1} us ({:.0} TFLOP/s), cuBLASLt (per-{}) {:.1} us, {:.1}% \
                         [{:.1}-{:.1}]; fast-accum cuBLASLt {}; bare read {}; predicted {:.1} us",
                        row.ours_us,
                        row.ours_tflops,
                        row.peer_mode,
                        row.peer_us,
                        100.0 * row.ratio.median,
                        100.0 * row.ratio.min,
                        100.0 * row.ratio.max,
                        opt(row.fast_us, row.fast_ratio),
                        opt(row.read_us, row.read_ratio),
                        row.predicted_us
                    );
                    out.push(row);
                }
                Err(e) => {
                    eprintln!("{size} per-{mode}: {e}");
                    failed.push(format!("{size} per-{mode}: {e}"));
                }
            }
        }
    }
    Ok((out, failed))
}

/// Compile every spec planned for `shapes` x `modes` (and the `candidates` runners-up), each once, on every host
/// thread at once (the problems' first launches then load them from the compile cache). A problem that does not
/// plan is left to [`one`].
fn precompile(
    shapes: &[Size],
    modes: &[ScaleMode],
    dev: &swizzle_core::plan::Device,
    candidates: usize,
) -> Result<()> {
    let mut specs = Vec::new();
    for &size in shapes {
        for &mode in modes {
            for p in ranked(size, mode, dev, 1 + candidates).unwrap_or_default() {
                if !specs.contains(&p.spec) {
                    specs.push(p.spec);
                }
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = gpu_kernels::frame::host_threads().min(specs.len());
    std::thread::scope(|sc| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                sc.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(spec) = specs.get(i) else {
                        return Ok(());
                    };
                    compile_cached(spec, None)?;
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("compile thread"))
    })
}

/// One problem in one mode (see [`run`]).
#[allow(clippy::too_many_arguments)]
fn one(
    gpu: &Gpu,
    (lt, probe): (&CublasLt, &HbmRead),
    dev: &swizzle_core::plan::Device,
    (size, mode, si): (Size, ScaleMode, usize),
    (n_rounds, timing): (usize, Timing),
    cfg: &BenchConfig,
    candidates: usize,
) -> Result<Fp8Row> {
    let mut specs = ranked(size, mode, dev, 1 + candidates)?;
    let planned = specs.remove(0); // ranked returns at least one
    let g = HopperGemm::new(gpu, planned.spec)?;
    let runners: Vec<_> = specs
        .into_iter()
        .map(|p| Ok((HopperGemm::new(gpu, p.spec)?, p.estimate)))
        .collect::<Result<_>>()?;
    let x = reference::random_e4m3(size.mk_len(), 100 + si as u64);
    let w = reference::random_e4m3(size.nk_len(), 200 + si as u64);
    // 16 sampled rows (the first, the last, random ones): every column, K and tile edge of them.
    let rows: Vec<u32> = [0, size.m - 1]
        .into_iter()
        .chain(gpu_kernels::elem::indices(14, size.m, si as u64))
        .collect();
    let agr = check_on(gpu, &g, size, (&x, &w), &rows, 7 + si as u64, 8e-3)?;
    for (r, _) in &runners {
        check_on(gpu, r, size, (&x, &w), &rows, 7 + si as u64, 8e-3)?;
    }
    let call = |m: ScaleMode| Fp8Call::new(size, m);
    let (da, db) = (gpu.upload(&x)?, gpu.upload(&w)?);
    let (peer_mode, peer, peer_scales) =
        checked_peer(gpu, lt, size, mode, (&x, &w), (&da, &db), 300 + si as u64)?;
    // The same peer with fast accumulation (not checked against the bound: it does not promote).
    let fast = lt
        .fp8_plan(Fp8Call {
            fast_accum: true,
            ..call(peer_mode)
        })
        .ok();
    drop((da, db));
    let mut sets = rotated_sets(gpu, size, (&x, &w), cfg.l2_factor)?;
    let count = sets.len();
    let scales = reference::random_scales(mode, size, 300 + si as u64);
    let ours_scales = scales.map(|v| gpu.upload(v))?;
    // The bare read of the problem's least bytes (M <= ROOFLINE_MAX_M).
    let least = Problem::new(size, Elem::E4M3).with_scale(mode).min_bytes();
    let mut reads = if size.m <= ROOFLINE_MAX_M {
        Some(probe.sets(gpu, least, cfg.l2_factor)?)
    } else {
        None
    };
    // Contestants: 0 cuBLASLt, 1 ours (planned), then the fast-accumulation peer and the bare read where they
    // exist, then the runners-up.
    let fast_at = fast.as_ref().map(|_| 2);
    let read_at = reads.as_ref().map(|_| 2 + fast.is_some() as usize);
    let first_runner = 2 + fast.is_some() as usize + reads.is_some() as usize;
    let contestants = first_runner + runners.len();
    let times = rounds::interleaved_timed(gpu, cfg, contestants, n_rounds, timing, |who, i| {
        let s = &mut sets[i % count];
        match who {
            0 => lt.fp8_gemm(&peer, &s.a, &s.b, &peer_scales, &mut s.c),
            1 => g.launch_fp8(gpu, &s.a, &s.b, &ours_scales, &mut s.c, size),
            w if w >= first_runner => runners[w - first_runner].0.launch_fp8(
                gpu,
                &s.a,
                &s.b,
                &ours_scales,
                &mut s.c,
                size,
            ),
            w if Some(w) == fast_at => lt.fp8_gemm(
                fast.as_ref().expect("fast peer"),
                &s.a,
                &s.b,
                &peer_scales,
                &mut s.c,
            ),
            _ => probe.run(gpu, reads.as_mut().expect("bare read"), i),
        }
    })?;
    let med = |t: &[f64]| bench::spread(t).median;
    let (peer_ms, ours_ms) = (med(&times[0]), med(&times[1]));
    let predicted_s = planned.estimate.time_s;
    let tflops = |ms: f64| size.flops() as f64 / (ms * 1e-3) / 1e12;
    Ok(Fp8Row {
        size,
        mode: mode.to_string(),
        peer_mode: peer_mode.to_string(),
        spec: spec_label(&g.spec),
        bound: planned.estimate.bound.to_string(),
        ours_us: ours_ms * 1e3,
        peer_us: peer_ms * 1e3,
        ours_tflops: tflops(ours_ms),
        peer_tflops: tflops(peer_ms),
        ratio: bench::spread(&rounds::ratios(&times[0], &times[1])),
        predicted_us: predicted_s * 1e6,
        error: prediction_error(predicted_s, ours_ms),
        normwise: agr.normwise,
        fast_us: fast_at.map(|w| med(&times[w]) * 1e3),
        fast_ratio: fast_at.map(|w| bench::spread(&rounds::ratios(&times[w], &times[1]))),
        read_us: read_at.map(|w| med(&times[w]) * 1e3),
        read_ratio: read_at.map(|w| bench::spread(&rounds::ratios(&times[w], &times[1]))),
        candidates: runners
            .iter()
            .enumerate()
            .map(|(i, (r, e))| {
                let t = &times[first_runner + i];
                Fp8Candidate {
                    spec: spec_label(&r.spec),
                    bound: e.bound.to_string(),
                    predicted_us: e.time_s * 1e6,
                    us: med(t) * 1e3,
                    ratio: bench::spread(&rounds::ratios(&times[0], t)),
                    vs_plan: bench::spread(&rounds::ratios(&times[1], t)),
                }
            })
            .collect(),
    })
}

/// The cuBLASLt peer of `size` in `mode` where cuBLASLt plans it, else per-tensor (said on stderr): its mode, its
/// plan and its device scales (random from `seed`). Its output on the device operands `(da, db)` (host `(x, w)`)
/// is checked first against the fp64 host reference of the dequantized inputs on 4 sampled rows, within the
/// bound of a bf16 output.
pub fn checked_peer(
    gpu: &Gpu,
    lt: &CublasLt,
    size: Size,
    mode: ScaleMode,
    (x, w): (&[E4m3], &[E4m3]),
    (da, db): (&CudaSlice<E4m3>, &CudaSlice<E4m3>),
    seed: u64,
) -> Result<(ScaleMode, Fp8Plan, Scales<CudaSlice<f32>>)> {
    let peer_in = |m: ScaleMode| -> Result<(Fp8Plan, Scales<CudaSlice<f32>>)> {
        let call = Fp8Call::new(size, m);
        let p = lt.fp8_plan(call)?;
        let host = reference::random_scales(m, size, seed);
        let dev_scales = host.map(|v| gpu.upload(v))?;
        let mut c = gpu.zeros::<half::bf16>(size.mn_len())?;
        gpu.fill_bytes(&mut c, 0xFF)?;
        lt.fp8_gemm(&p, da, db, &dev_scales, &mut c)?;
        gpu.sync()?;
        let got = gpu.download(&c)?;
        let rows: Vec<u32> = gpu_kernels::elem::indices(4, size.m, seed).collect();
        let r = reference::host_rows(x, w, size, &host, &rows)?;
        compare(
            |i, j| got[i as usize * size.n as usize + j].to_f64(),
            &rows,
            &r,
            &Bound::new(Elem::BF16, m, size.k),
            8e-3,
            &format!("cuBLASLt {call}"),
        )?;
        Ok((p, dev_scales))
    };
    match peer_in(mode) {
        Ok((p, s)) => Ok((mode, p, s)),
        Err(e) => {
            eprintln!("cuBLASLt per-{mode} at {size}: {e}; the peer runs per-tensor");
            let (p, s) = peer_in(ScaleMode::Tensor)?;
            Ok((ScaleMode::Tensor, p, s))
        }
    }
}

/// The rows as a markdown table (the layer, the plan and what bounds it, ours and cuBLASLt, the model's
/// prediction and its error, the bare read at M <= [`ROOFLINE_MAX_M`]), then per scaling mode the geomean of the
/// ratios, the lowest, and ours against the bare read.
pub fn markdown(rows: &[Fp8Row], failed: &[String], device: &str) -> String {
    let pct = |q: Option<bench::Spread>| {
        q.map_or("-".to_string(), |q| format!("{:.1}%", 100.0 * q.median))
    };
    let mut table = Markdown::new(&[
        ("layer", Left),
        ("M x N x K", Left),
        ("scaling", Left),
        ("plan", Left),
        ("bound", Left),
        ("ours µs", Right),
        ("cuBLASLt µs", Right),
        ("**cuBLASLt / ours** (rounds)", Right),
        ("fast-accum cuBLASLt / ours", Right),
        ("predicted µs (error)", Right),
        ("bare read µs, read / ours", Right),
    ]);
    for r in rows {
        let peer = if r.peer_mode == r.mode {
            String::new()
        } else {
            format!(" (peer per-{})", r.peer_mode)
        };
        let read = match (r.read_us, r.read_ratio) {
            (Some(us), q) => format!("{us:.1}, {}", pct(q)),
            _ => "-".to_string(),
        };
        table.row([
            layer_name(r.size.n, r.size.k).unwrap_or("-").to_string(),
            r.size.to_string(),
            format!("{}{peer}", r.mode),
            r.spec.to_string(),
            r.bound.to_string(),
            format!("{:.1}", r.ours_us),
            format!("{:.1}", r.peer_us),
            r.ratio.percent_cell(),
            pct(r.fast_ratio),
            format!("{:.1} ({:+.0}%)", r.predicted_us, 100.0 * r.error),
            read,
        ]);
    }
    let mut s = format!("device: {device}\n\n{}", table.finish());
    // Each mode once, in the order the rows first name it (the rows alternate modes problem by problem).
    let mut modes: Vec<&str> = Vec::new();
    for r in rows {
        if !modes.contains(&r.mode.as_str()) {
            modes.push(r.mode.as_str());
        }
    }
    for mode in modes {
        let of: Vec<&Fp8Row> = rows.iter().filter(|r| r.mode == mode).collect();
        let ratios: Vec<f64> = of.iter().map(|r| r.ratio.median).collect();
        let lowest = of
            .iter()
            .min_by(|a, b| a.ratio.median.total_cmp(&b.ratio.median));
        let worst = of.iter().map(|r| r.error.abs()).fold(0.0, f64::max);
        if let (Some(g), Some(low)) = (geomean(&ratios), lowest) {
            s += &format!(
                "\nper-{mode}: geomean cuBLASLt / ours **{:.1}%** over {} problems, {} at or above 100%; lowest {:.1}% \
                 ({}); worst prediction error {:.0}%\n",
                100.0 * g,
                of.len(),
                ratios.iter().filter(|&&q| q >= 1.0).count(),
                100.0 * low.ratio.median,
                low.size,
                100.0 * worst
            );
        }
        let small: Vec<&&Fp8Row> = of.iter().filter(|r| r.read_ratio.is_some()).collect();
        let vs_read: Vec<f64> = small
            .iter()
            .filter_map(|r| r.read_ratio.map(|q| q.median))
            .collect();
        let vs_peer: Vec<f64> = small.iter().map(|r| r.ratio.median).collect();
        if let (Some(lo), Some(hi)) = (
            vs_read.iter().copied().reduce(f64::min),
            vs_read.iter().copied().reduce(f64::max),
        ) {
            s += &format!(
                "per-{mode}, M <= {ROOFLINE_MAX_M}: ours at {:.1}-{:.1}% of the bare read's speed ({} of {} at 85% or \
                 more); cuBLASLt / ours {:.1}-{:.1}%\n",
                100.0 * lo,
                100.0 * hi,
                vs_read.iter().filter(|&&q| q >= 0.85).count(),
                vs_read.len(),
                100.0 * vs_peer.iter().copied().fold(f64::INFINITY, f64::min),
                100.0 * vs_peer.iter().copied().fold(0.0, f64::max),
            );
        }
    }
    s += &runners_up(rows);
    for f in failed {
        s += &format!("failed: {f}\n");
    }
    s
}

/// The runners-up table (empty without any): each problem's plan and the candidates measured beside it, with
/// the model's prediction, then how often the plan was the fastest measured and what it lost where not.
fn runners_up(rows: &[Fp8Row]) -> String {
    let with: Vec<&Fp8Row> = rows.iter().filter(|r| !r.candidates.is_empty()).collect();
    if with.is_empty() {
        return String::new();
    }
    let mut table = Markdown::new(&[
        ("M x N x K", Left),
        ("scaling", Left),
        ("spec", Left),
        ("bound", Left),
        ("predicted µs", Right),
        ("measured µs", Right),
        ("cuBLASLt / it", Right),
        ("plan / it (rounds)", Right),
    ]);
    let (mut fastest, mut lost) = (0, Vec::new());
    for r in &with {
        table.row([
            r.size.to_string(),
            r.mode.clone(),
            format!("{} (plan)", r.spec),
            r.bound.clone(),
            format!("{:.1}", r.predicted_us),
            format!("{:.1}", r.ours_us),
            format!("{:.1}%", 100.0 * r.ratio.median),
            "-".to_string(),
        ]);
        for c in &r.candidates {
            table.row([
                String::new(),
                String::new(),
                c.spec.clone(),
                c.bound.clone(),
                format!("{:.1}", c.predicted_us),
                format!("{:.1}", c.us),
                format!("{:.1}%", 100.0 * c.ratio.median),
                c.vs_plan.percent_cell(),
            ]);
        }
        let best = r
            .candidates
            .iter()
            .map(|c| c.vs_plan.median)
            .fold(1.0, f64::max);
        if best > 1.0 {
            lost.push(best - 1.0);
        } else {
            fastest += 1;
        }
    }
    let mut s = format!(
        "\nthe planner's runners-up, the same rounds:\n\n{}",
        table.finish()
    );
    s += &format!(
        "\nthe plan the fastest measured at {fastest} of {} problems",
        with.len()
    );
    if let Some(worst) = lost.iter().copied().reduce(f64::max) {
        s += &format!(
            "; elsewhere a runner-up {:.1}% faster on average (at most {:.1}%)",
            100.0 * lost.iter().sum::<f64>() / lost.len() as f64,
            100.0 * worst
        );
    }
    s + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(m: u32, mode: &str, ratio: f64) -> Fp8Row {
        let q = bench::Spread {
            median: ratio,
            min: ratio,
            max: ratio,
            rounds: 1,
        };
        Fp8Row {
            size: Size::mnk(m, 4096, 4096),
            mode: mode.to_string(),
            peer_mode: "tensor".to_string(),
            spec: "spec".to_string(),
            bound: "HBM bytes".to_string(),
            ours_us: 10.0,
            peer_us: 10.0 * ratio,
            ours_tflops: 1.0,
            peer_tflops: 1.0,
            ratio: q,
            predicted_us: 10.0,
            error: 0.0,
            normwise: 1e-3,
            fast_us: None,
            fast_ratio: None,
            read_us: None,
            read_ratio: None,
            candidates: Vec::new(),
        }
    }

    /// The runners-up table lists each problem's plan, then its candidates against it; the summary counts the
    /// problems where the plan was the fastest measured and what it lost elsewhere.
    #[test]
    fn runners_up_count_where_the_plan_was_fastest() {
        let cand = |vs: f64| Fp8Candidate {
            spec: "other".to_string(),
            bound: "copy latency".to_string(),
            predicted_us: 11.0,
            us: 10.0 / vs,
            ratio: bench::Spread {
                median: vs,
                min: vs,
                max: vs,
                rounds: 1,
            },
            vs_plan: bench::Spread {
                median: vs,
                min: vs,
                max: vs,
                rounds: 1,
            },
        };
        let mut a = row(8192, "tensor", 1.0);
        a.candidates = vec![cand(0.97), cand(0.99)];
        let mut b = row(2048, "tensor", 1.0);
        b.candidates = vec![cand(1.04), cand(1.02)];
        let text = markdown(&[a, b, row(16, "tensor", 1.0)], &[], "dev");
        assert_eq!(text.matches("(plan)").count(), 2, "{text}");
        assert!(
            text.contains("the plan the fastest measured at 1 of 2 problems; elsewhere a runner-up 4.0% faster"),
            "{text}"
        );
        assert!(!markdown(&[row(16, "tensor", 1.0)], &[], "dev").contains("runners-up"));
    }

    /// The bench measures the modes problem by problem, so its rows alternate them: each mode's summary is
    /// printed once, over that mode's rows only.
    #[test]
    fn one_summary_per_mode_over_alternating_rows() {
        let rows = [
            row(16, "tensor", 1.0),
            row(16, "row", 0.9),
            row(128, "tensor", 1.21),
            row(128, "row", 0.9),
        ];
        let text = markdown(&rows, &[], "dev");
        assert_eq!(text.matches("per-tensor: geomean").count(), 1, "{text}");
        assert_eq!(text.matches("per-row: geomean").count(), 1, "{text}");
        assert!(
            text.contains("per-tensor: geomean cuBLASLt / ours **110.0%** over 2 problems"),
            "{text}"
        );
        assert!(
            text.contains("per-row: geomean cuBLASLt / ours **90.0%** over 2 problems"),
            "{text}"
        );
    }
}
