//! The e4m3 GEMM under sustained load (`swz bench gemm --dtype e4m3 --sustained MS`): each contestant runs back
//! to back for MS milliseconds at a time, with the SM clock and board power sampled (`crate::smi`), so its
//! throughput is read at the clock the card holds at its power cap and as a share of the tensor peak at that clock.
//!
//! A large FP8 GEMM holds an H100 at its 700 W cap, where the clock settles between about 1.25 and 1.6 GHz:
//! far below the 1.98 GHz the card reaches idle. Interleaved rounds of 20 launches
//! ([`crate::hopper::fp8_bench`]) compare contestants at whatever clock each round happens to get (the rounds of
//! one 8192³ run spread 85-107%); a burst of seconds measures each at its own settled clock, and TFLOP/s per clock
//! separates what the kernel does with each cycle from how many cycles the power budget allows it.
//!
//! Per problem: cuBLASLt per-tensor (the peer) and the planned kernel in each mode, each checked against the fp64
//! host reference on sampled rows first; one untimed warm-up burst of the peer (a cool card holds a higher clock for
//! its first seconds), then `passes` passes over the contestants, every other pass in reverse order. Each burst
//! rotates operand sets that together exceed twice the L2. Reported per contestant: the mean over passes of its
//! TFLOP/s, clock, power and [`efficiency`], and ours against cuBLASLt per pass (the peer's burst of the same pass).

use crate::bench::Align::{Left, Right};
use crate::bench::{self, Markdown};
use crate::hopper::fp8_bench::{checked_peer, rotated_sets, Set};
use crate::hopper::shapes::spec_label;
use crate::smi::{self, Sampler};
use gpu_kernels::fp8::{reference, ScaleMode};
use gpu_kernels::hopper::fp8::{check_on, plan};
use gpu_kernels::hopper::planned::plan_device;
use gpu_kernels::hopper::{check_device, HopperGemm};
use gpu_kernels::runtime::{CublasLt, Gpu, Result};
use gpu_kernels::Size;
use std::time::{Duration, Instant};

/// Dense e4m3 tensor-core flops per SM per clock on sm_90: the H100 SXM's 1979 TFLOP/s at its 1830 MHz boost
/// clock on 132 SMs (1979e12 / (132 x 1.83e9) = 8192; the 16-bit rate is half).
pub const E4M3_FLOPS_PER_SM_CLOCK: f64 = 8192.0;

/// The clock settles in a burst's first few hundred milliseconds: samples before this are not averaged.
const SETTLE: Duration = Duration::from_millis(500);

/// TFLOP/s as a share of the dense e4m3 tensor peak of `sms` SMs at `clock_mhz`.
pub fn efficiency(tflops: f64, clock_mhz: f64, sms: u32) -> f64 {
    tflops * 1e12 / (sms as f64 * E4M3_FLOPS_PER_SM_CLOCK * clock_mhz * 1e6)
}

/// One burst.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Burst {
    pub size: Size,
    /// `cuBLASLt per-tensor`, or ours: `per-MODE SPEC`.
    pub contestant: String,
    pub pass: usize,
    pub launches: u64,
    pub tflops: f64,
    /// Mean SM clock and board power over the burst after [`SETTLE`]; `None` without `nvidia-smi`.
    pub clock_mhz: Option<f64>,
    pub power_w: Option<f64>,
    pub efficiency: Option<f64>,
}

/// The bursts of every problem's contestants (see the module docs), and one line for each problem that failed
/// (its check, a launch), the others measured still.
pub fn run(
    gpu: &Gpu,
    shapes: &[Size],
    modes: &[ScaleMode],
    burst: Duration,
    passes: usize,
) -> Result<(Vec<Burst>, Vec<String>)> {
    check_device(gpu.props())?;
    let dev = plan_device(gpu.props());
    let lt = CublasLt::new(gpu)?;
    let sampler = Sampler::start(&smi::pci_bus_id(gpu)?, 50)
        .map_err(|e| eprintln!("{e}: no clock or power"))
        .ok();
    let (mut out, mut failed) = (Vec::new(), Vec::new());
    for (si, &size) in shapes.iter().enumerate() {
        match problem(
            gpu,
            (&lt, sampler.as_ref()),
            (size, si),
            modes,
            &dev,
            (burst, passes),
        ) {
            Ok(b) => out.extend(b),
            Err(e) => {
                eprintln!("{size}: {e}");
                failed.push(format!("{size}: {e}"));
            }
        }
    }
    Ok((out, failed))
}

/// One problem's contestants, checked, then its bursts (see [`run`]); `si` seeds its inputs.
fn problem(
    gpu: &Gpu,
    (lt, sampler): (&CublasLt, Option<&Sampler>),
    (size, si): (Size, usize),
    modes: &[ScaleMode],
    dev: &swizzle_core::plan::Device,
    (burst, passes): (Duration, usize),
) -> Result<Vec<Burst>> {
    let x = reference::random_e4m3(size.mk_len(), 100 + si as u64);
    let w = reference::random_e4m3(size.nk_len(), 200 + si as u64);
    let (da, db) = (gpu.upload(&x)?, gpu.upload(&w)?);
    let (peer_mode, peer, peer_scales) = checked_peer(
        gpu,
        lt,
        size,
        ScaleMode::Tensor,
        (&x, &w),
        (&da, &db),
        300 + si as u64,
    )?;
    let rows: Vec<u32> = [0, size.m - 1]
        .into_iter()
        .chain(gpu_kernels::elem::indices(6, size.m, si as u64))
        .collect();
    let mut ours = Vec::new();
    for &mode in modes {
        let g = HopperGemm::new(gpu, plan(size, mode, dev)?.spec)?;
        check_on(gpu, &g, size, (&x, &w), &rows, 7 + si as u64, 8e-3)?;
        let scales =
            reference::random_scales(mode, size, 300 + si as u64).map(|v| gpu.upload(v))?;
        ours.push((format!("per-{mode} {}", spec_label(&g.spec)), g, scales));
    }
    drop((da, db));
    let mut sets = rotated_sets(gpu, size, (&x, &w), 2)?;
    let count = sets.len();
    let mut launch = |who: usize, i: usize| {
        let Set { a, b, c } = &mut sets[i % count];
        match who {
            0 => lt.fp8_gemm(&peer, a, b, &peer_scales, c),
            v => {
                let (_, g, s) = &ours[v - 1];
                g.launch_fp8(gpu, a, b, s, c, size)
            }
        }
    };
    // Contestant `who` back to back for `burst` (5 launches between synchronizations): launches, start, end.
    let mut run_for = |who: usize| -> Result<(u64, Instant, Instant)> {
        launch(who, 0)?;
        gpu.sync()?;
        let t = Instant::now();
        let mut n = 0u64;
        while t.elapsed() < burst {
            for _ in 0..5 {
                launch(who, n as usize)?;
                n += 1;
            }
            gpu.sync()?;
        }
        Ok((n, t, Instant::now()))
    };
    run_for(0)?;
    let names: Vec<String> = std::iter::once(format!("cuBLASLt per-{peer_mode}"))
        .chain(ours.iter().map(|o| o.0.clone()))
        .collect();
    let mut bursts = Vec::new();
    for pass in 0..passes {
        let mut order: Vec<usize> = (0..names.len()).collect();
        if pass % 2 == 1 {
            order.reverse();
        }
        for who in order {
            let (launches, t, end) = run_for(who)?;
            let tflops = size.flops() as f64 * launches as f64 / (end - t).as_secs_f64() / 1e12;
            let win = sampler.and_then(|s| s.window(t + SETTLE, end));
            let b = Burst {
                size,
                contestant: names[who].clone(),
                pass,
                launches,
                tflops,
                clock_mhz: win.map(|w| w.clock_mhz),
                power_w: win.map(|w| w.power_w),
                efficiency: win.map(|w| efficiency(tflops, w.clock_mhz, gpu.props().sm_count)),
            };
            eprintln!(
                "{size} pass {pass}: {} {:.0} TFLOP/s{}",
                b.contestant,
                b.tflops,
                win.map_or(String::new(), |w| format!(
                    " at {:.0} MHz, {:.0} W",
                    w.clock_mhz, w.power_w
                ))
            );
            bursts.push(b);
        }
    }
    Ok(bursts)
}

/// Per problem and contestant (in the order measured): the means over passes of TFLOP/s (with the range), clock,
/// power and efficiency, and TFLOP/s against the peer's burst of the same pass (median and range over passes).
pub fn markdown(bursts: &[Burst], failed: &[String], device: &str) -> String {
    let mut table = Markdown::new(&[
        ("M x N x K", Left),
        ("contestant", Left),
        ("TFLOP/s (passes)", Right),
        ("SM MHz", Right),
        ("W", Right),
        ("of the tensor peak at that clock", Right),
        ("**TFLOP/s / cuBLASLt's, same pass**", Right),
    ]);
    let mut seen: Vec<(Size, &str)> = Vec::new();
    for b in bursts {
        if !seen.contains(&(b.size, b.contestant.as_str())) {
            seen.push((b.size, b.contestant.as_str()));
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    for (size, who) in seen {
        let mine: Vec<&Burst> = bursts
            .iter()
            .filter(|b| b.size == size && b.contestant == who)
            .collect();
        let tf: Vec<f64> = mine.iter().map(|b| b.tflops).collect();
        let opt = |f: fn(&Burst) -> Option<f64>, fmt: fn(f64) -> String| {
            let v: Option<Vec<f64>> = mine.iter().map(|b| f(b)).collect();
            v.map_or("-".to_string(), |v| fmt(mean(&v)))
        };
        // The peer is the first contestant measured at each problem.
        let peer_of = |pass: usize| {
            bursts
                .iter()
                .find(|b| b.size == size && b.pass == pass && b.contestant.starts_with("cuBLASLt"))
        };
        let ratios: Vec<f64> = mine
            .iter()
            .filter_map(|b| peer_of(b.pass).map(|p| b.tflops / p.tflops))
            .collect();
        let vs = if who.starts_with("cuBLASLt") || ratios.is_empty() {
            "-".to_string()
        } else {
            bench::spread(&ratios).percent_cell()
        };
        let (lo, hi) = tf
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &t| (l.min(t), h.max(t)));
        table.row([
            size.to_string(),
            who.to_string(),
            format!("{:.0} ({lo:.0}-{hi:.0})", mean(&tf)),
            opt(|b| b.clock_mhz, |v| format!("{v:.0}")),
            opt(|b| b.power_w, |v| format!("{v:.0}")),
            opt(|b| b.efficiency, |v| format!("{:.1}%", 100.0 * v)),
            vs,
        ]);
    }
    let mut s = format!("device: {device}\n\n{}", table.finish());
    for f in failed {
        s.push_str(&format!("\nfailed: {f}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn burst(contestant: &str, pass: usize, tflops: f64, clock: f64) -> Burst {
        Burst {
            size: Size::mnk(8192, 8192, 8192),
            contestant: contestant.to_string(),
            pass,
            launches: 100,
            tflops,
            clock_mhz: Some(clock),
            power_w: Some(700.0),
            efficiency: Some(efficiency(tflops, clock, 132)),
        }
    }

    #[test]
    fn the_peak_at_the_boost_clock_is_the_data_sheet_rate() {
        // 1979 TFLOP/s dense e4m3 at 1830 MHz on 132 SMs is the whole peak.
        assert!((efficiency(1979.0, 1830.0, 132) - 1.0).abs() < 1e-3);
        // The same rate at a lower held clock is a larger share of that clock's peak.
        assert!(efficiency(1200.0, 1300.0, 132) > efficiency(1200.0, 1500.0, 132));
    }

    #[test]
    fn ours_is_compared_with_the_peer_of_its_own_pass() {
        let bursts = [
            burst("cuBLASLt per-tensor", 0, 1000.0, 1300.0),
            burst("per-block X", 0, 900.0, 1300.0),
            burst("per-block X", 1, 1100.0, 1300.0),
            burst("cuBLASLt per-tensor", 1, 1000.0, 1300.0),
        ];
        let md = markdown(&bursts, &[], "test");
        // Pass 0: 90%, pass 1: 110%; the median of two is their mean.
        assert!(md.contains("**100.0%** (90.0-110.0)"), "{md}");
        assert!(md.contains("1000 (900-1100)"), "{md}");
        // The peer's own row has no ratio; each contestant is one row.
        assert_eq!(md.matches("per-block X").count(), 1, "{md}");
        assert!(md.contains("| 1300 | 700 |"), "{md}");
    }
}
