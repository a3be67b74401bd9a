//! The e4m3 Hopper GEMM against cuBLASLt's FP8 GEMM at any shape and scaling, in interleaved rounds on the same
//! buffers (`swz bench gemm --dtype e4m3 --shapes ...`).
//!
//! Per problem and mode: random e4m3 inputs and fp32 scales in enough buffer sets that together they exceed
//! twice the L2 (so small-M problems read their weights from HBM); both contestants' outputs (poisoned first)
//! checked against the fp64 host reference on sampled rows before any timing; then `rounds` rounds, each
//! contestant `cfg.warmup` untimed + `cfg.iters` timed launches (CUDA events, median), the order rotated every
//! round ([`crate::bench::rounds`]). The peer runs the same scaling mode where this GPU's cuBLASLt accepts it,
//! else per-tensor scaling (said in the row). Reported: the median of the per-round ratios with its range, and
//! the planner's prediction beside the measured time.

use crate::bench::Align::Left;
use crate::bench::{self, rounds, BenchConfig, Markdown};
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::E4m3;
use gpu_kernels::fp8::reference::{self, compare, Bound};
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::hopper::fp8::{check_on, plan};
use gpu_kernels::hopper::planned::plan_device;
use gpu_kernels::hopper::{HopperGemm, HopperSpec};
use gpu_kernels::runtime::cublas::Fp8Plan;
use gpu_kernels::runtime::{CublasLt, Fp8Call, Gpu, Result};
use gpu_kernels::Size;
use swizzle_core::Elem;

/// One measured problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Fp8Row {
    pub size: Size,
    pub mode: String,
    /// The scaling the peer ran (the same, or `tensor` where cuBLASLt refused the mode).
    pub peer_mode: String,
    pub spec: String,
    pub ours_us: f64,
    pub peer_us: f64,
    pub ours_tflops: f64,
    pub peer_tflops: f64,
    /// Median, min and max over rounds of peer time / ours (> 1: ours faster).
    pub ratio: bench::Spread,
    pub predicted_us: f64,
    /// Our normwise error against the host reference on the sampled rows.
    pub normwise: f64,
    /// cuBLASLt in the same mode with fast accumulation (no promotion, the accumulation of our per-tensor and
    /// per-row kernels), where it plans: its median time and peer / ours over the rounds.
    pub fast_us: Option<f64>,
    pub fast_ratio: Option<bench::Spread>,
    /// The plan's tile as a multicast pair (clusters of 2), where that is not the plan: its median time and
    /// cuBLASLt / it over the rounds.
    pub pair_us: Option<f64>,
    pub pair_ratio: Option<bench::Spread>,
}

struct Set {
    a: CudaSlice<E4m3>,
    b: CudaSlice<E4m3>,
    c: CudaSlice<half::bf16>,
}

/// Measure the planned e4m3 kernel against cuBLASLt at every `shape` in every `mode`: the rows measured, and
/// one line for each problem that failed (its check, a launch), the others measured still.
pub fn run(
    gpu: &Gpu,
    shapes: &[Size],
    modes: &[ScaleMode],
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<(Vec<Fp8Row>, Vec<String>)> {
    let lt = CublasLt::new(gpu)?;
    let dev = plan_device(gpu.props());
    let (mut out, mut failed) = (Vec::new(), Vec::new());
    for (si, &size) in shapes.iter().enumerate() {
        for &mode in modes {
            match one(gpu, &lt, &dev, size, mode, si, n_rounds, cfg) {
                Ok(row) => {
                    // Each row as it is measured (a run cut short keeps what it measured).
                    let opt = |us: Option<f64>, q: Option<bench::Spread>| match (us, q) {
                        (Some(us), Some(q)) => format!("{us:.1} us ({:.1}%)", 100.0 * q.median),
                        _ => "-".into(),
                    };
                    eprintln!(
                        "{size} per-{mode}: ours {:.1} us ({:.0} TFLOP/s), cuBLASLt (per-{}) {:.1} us, {:.1}% \
                         [{:.1}-{:.1}]; fast-accum cuBLASLt {}; pair {}; predicted {:.1} us",
                        row.ours_us,
                        row.ours_tflops,
                        row.peer_mode,
                        row.peer_us,
                        100.0 * row.ratio.median,
                        100.0 * row.ratio.min,
                        100.0 * row.ratio.max,
                        opt(row.fast_us, row.fast_ratio),
                        opt(row.pair_us, row.pair_ratio),
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

/// One problem in one mode (see [`run`]).
#[allow(clippy::too_many_arguments)]
fn one(
    gpu: &Gpu,
    lt: &CublasLt,
    dev: &swizzle_core::plan::Device,
    size: Size,
    mode: ScaleMode,
    si: usize,
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<Fp8Row> {
    let planned = plan(size, mode, dev)?;
    let g = HopperGemm::new(gpu, planned.spec)?;
    let x = reference::random_e4m3(size.mk_len(), 100 + si as u64);
    let w = reference::random_e4m3(size.nk_len(), 200 + si as u64);
    // 16 sampled rows (the first, the last, random ones): every column, K and tile edge of them.
    let rows: Vec<u32> = [0, size.m - 1]
        .into_iter()
        .chain(gpu_kernels::elem::indices(14, size.m, si as u64))
        .collect();
    let agr = check_on(gpu, &g, size, (&x, &w), &rows, 7 + si as u64, 8e-3)?;
    // The multicast pair of the same tile beside the plan (the shipped 16-bit configuration in e4m3), when it is
    // not the plan itself: FP8 asks twice the L2 bytes per second of the 16-bit kernel.
    let pair_spec = HopperSpec {
        cluster: 2,
        split: 1,
        ..planned.spec
    };
    let pair = if pair_spec != planned.spec
        && pair_spec.validate(gpu.props().smem_per_block_optin).is_ok()
    {
        let p = HopperGemm::new(gpu, pair_spec)?;
        check_on(gpu, &p, size, (&x, &w), &rows, 8 + si as u64, 8e-3)?;
        Some(p)
    } else {
        None
    };
    let call = |m: ScaleMode| Fp8Call::new(size, m);
    let (da, db) = (gpu.upload(&x)?, gpu.upload(&w)?);
    // The peer in `mode` where cuBLASLt plans it and its output checks, else per-tensor.
    let peer_in = |m: ScaleMode| -> Result<(Fp8Plan, Scales<CudaSlice<f32>>)> {
        let p = lt.fp8_plan(call(m))?;
        let host = reference::random_scales(m, size, 300 + si as u64);
        let dev_scales = host.map(|v| gpu.upload(v))?;
        let mut c = gpu.zeros::<half::bf16>(size.mn_len())?;
        gpu.fill_bytes(&mut c, 0xFF)?;
        lt.fp8_gemm(&p, &da, &db, &dev_scales, &mut c)?;
        gpu.sync()?;
        let got = gpu.download(&c)?;
        let rows: Vec<u32> = gpu_kernels::elem::indices(4, size.m, si as u64).collect();
        let r = reference::host_rows(&x, &w, size, &host, &rows)?;
        compare(
            |i, j| got[i as usize * size.n as usize + j].to_f64(),
            &rows,
            &r,
            &Bound::new(Elem::BF16, m, size.k),
            8e-3,
            &format!("cuBLASLt {}", call(m)),
        )?;
        Ok((p, dev_scales))
    };
    let (peer_mode, (peer, peer_scales)) = match peer_in(mode) {
        Ok(p) => (mode, p),
        Err(e) => {
            eprintln!("cuBLASLt per-{mode} at {size}: {e}; the peer runs per-tensor");
            (ScaleMode::Tensor, peer_in(ScaleMode::Tensor)?)
        }
    };
    // The same peer with fast accumulation (not checked against the bound: it does not promote).
    let fast = lt
        .fp8_plan(Fp8Call {
            fast_accum: true,
            ..call(peer_mode)
        })
        .ok();
    drop((da, db));
    let set_bytes = size.mk_len() + size.nk_len() + 2 * size.mn_len();
    let count = bench::rotation(set_bytes, gpu.props().l2_bytes, cfg.l2_factor.max(2));
    let mut sets = Vec::with_capacity(count);
    for _ in 0..count {
        sets.push(Set {
            a: gpu.upload(&x)?,
            b: gpu.upload(&w)?,
            c: gpu.zeros::<half::bf16>(size.mn_len())?,
        });
    }
    let scales = reference::random_scales(mode, size, 300 + si as u64);
    let ours_scales = scales.map(|v| gpu.upload(v))?;
    // Contestants: 0 cuBLASLt, 1 ours (planned), then the fast-accumulation peer and the pair where they exist.
    let fast_at = fast.as_ref().map(|_| 2);
    let pair_at = pair.as_ref().map(|_| 2 + fast.is_some() as usize);
    let contestants = 2 + fast.is_some() as usize + pair.is_some() as usize;
    let times = rounds::interleaved(gpu, cfg, contestants, n_rounds, |who, i| {
        let s = &mut sets[i % count];
        match who {
            0 => lt.fp8_gemm(&peer, &s.a, &s.b, &peer_scales, &mut s.c),
            1 => g.launch_fp8(gpu, &s.a, &s.b, &ours_scales, &mut s.c, size),
            w if Some(w) == fast_at => lt.fp8_gemm(
                fast.as_ref().expect("fast peer"),
                &s.a,
                &s.b,
                &peer_scales,
                &mut s.c,
            ),
            _ => pair.as_ref().expect("pair").launch_fp8(
                gpu,
                &s.a,
                &s.b,
                &ours_scales,
                &mut s.c,
                size,
            ),
        }
    })?;
    let med = |t: &[f64]| bench::spread(t).median;
    let (peer_ms, ours_ms) = (med(&times[0]), med(&times[1]));
    let tflops = |ms: f64| size.flops() as f64 / (ms * 1e-3) / 1e12;
    Ok(Fp8Row {
        size,
        mode: mode.to_string(),
        peer_mode: peer_mode.to_string(),
        spec: g.spec.to_string(),
        ours_us: ours_ms * 1e3,
        peer_us: peer_ms * 1e3,
        ours_tflops: tflops(ours_ms),
        peer_tflops: tflops(peer_ms),
        ratio: bench::spread(&rounds::ratios(&times[0], &times[1])),
        predicted_us: planned.estimate.time_s * 1e6,
        normwise: agr.normwise,
        fast_us: fast_at.map(|w| med(&times[w]) * 1e3),
        fast_ratio: fast_at.map(|w| bench::spread(&rounds::ratios(&times[w], &times[1]))),
        pair_us: pair_at.map(|w| med(&times[w]) * 1e3),
        pair_ratio: pair_at.map(|w| bench::spread(&rounds::ratios(&times[0], &times[w]))),
    })
}

/// The rows as a markdown table, geomean of the ratios last.
pub fn markdown(rows: &[Fp8Row], failed: &[String], device: &str) -> String {
    let mut table = Markdown::new(&[
        ("problem", Left),
        ("scaling", Left),
        ("ours (spec)", Left),
        ("ours µs", Left),
        ("TFLOP/s", Left),
        ("cuBLASLt µs", Left),
        ("TFLOP/s", Left),
        ("ours / cuBLASLt (rounds)", Left),
        ("cuBLASLt fast-accum µs, ours / it", Left),
        ("cluster-2 pair µs, / cuBLASLt", Left),
        ("predicted µs (err)", Left),
    ]);
    for r in rows {
        let fast = match (r.fast_us, r.fast_ratio) {
            (Some(us), Some(q)) => format!("{us:.1}, {:.1}%", 100.0 * q.median),
            _ => "-".to_string(),
        };
        let pair = match (r.pair_us, r.pair_ratio) {
            (Some(us), Some(q)) => format!("{us:.1}, {:.1}%", 100.0 * q.median),
            _ => "-".to_string(),
        };
        let peer = if r.peer_mode == r.mode {
            String::new()
        } else {
            format!(" (peer per-{})", r.peer_mode)
        };
        let q = &r.ratio;
        table.row([
            r.size.to_string(),
            format!("{}{peer}", r.mode),
            r.spec.to_string(),
            format!("{:.1}", r.ours_us),
            format!("{:.0}", r.ours_tflops),
            format!("{:.1}", r.peer_us),
            format!("{:.0}", r.peer_tflops),
            format!(
                "{:.1}% [{:.1}-{:.1}] x{}",
                100.0 * q.median,
                100.0 * q.min,
                100.0 * q.max,
                q.rounds
            ),
            fast,
            pair,
            format!(
                "{:.1} ({:+.0}%)",
                r.predicted_us,
                100.0 * (r.predicted_us / r.ours_us - 1.0)
            ),
        ]);
    }
    let mut s = format!("device: {device}\n\n{}", table.finish());
    if !rows.is_empty() {
        let g = (rows.iter().map(|r| r.ratio.median.ln()).sum::<f64>() / rows.len() as f64).exp();
        s += &format!(
            "\ngeomean ours / cuBLASLt: {:.1}% over {} problems\n",
            100.0 * g,
            rows.len()
        );
    }
    for f in failed {
        s += &format!("failed: {f}\n");
    }
    s
}
