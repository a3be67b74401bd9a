//! Interleaved rounds: a same-run speed ratio that survives a drifting clock.
//!
//! Under sustained tensor-core load an H100's clock sags (cuBLAS alone measured 782 -> 674 TFLOP/s over three
//! 25-run rounds), so one long block per contestant compares a cool card with a hot one. Instead every round times
//! each contestant briefly, in an order rotated every round (each goes first equally often), and the ratio is
//! taken within a round; the claim is the median of those per-round ratios, shown with their spread.
//!
//! This module is the one place for both: the rotation of the order ([`order`]), the timing of rounds
//! ([`interleaved`]) and the per-round ratios ([`ratios`]); their median with its range is a
//! [`Spread`](super::Spread).

use super::{time_with, BenchConfig, Timing};
use gpu_kernels::runtime::{Gpu, Result};

/// The order contestants `0..n` run in round `round`: `0..n` rotated left by `round % n`.
pub fn order(round: usize, n: usize) -> Vec<usize> {
    (0..n).map(|i| (i + round) % n.max(1)).collect()
}

/// `n` contestants (`run(x, i)` queues contestant `x`'s `i`-th launch of the round, so that it can walk rotated
/// buffers) timed in `n_rounds` rounds in the rotated [`order`]: `times[x][round]`, each the median of
/// `cfg.iters` runs after `cfg.warmup` ([`time`](super::time)).
pub fn interleaved(
    gpu: &Gpu,
    cfg: &BenchConfig,
    n: usize,
    n_rounds: usize,
    run: impl FnMut(usize, usize) -> Result<()>,
) -> Result<Vec<Vec<f64>>> {
    interleaved_then(gpu, cfg, n, n_rounds, run, |_| Ok(()))
}

/// [`interleaved`], calling `after(x)` once contestant `x`'s runs of a round are timed (to read back what its
/// last run recorded, outside the timed span).
pub fn interleaved_then(
    gpu: &Gpu,
    cfg: &BenchConfig,
    n: usize,
    n_rounds: usize,
    run: impl FnMut(usize, usize) -> Result<()>,
    after: impl FnMut(usize) -> Result<()>,
) -> Result<Vec<Vec<f64>>> {
    rounds_of(gpu, cfg, n, n_rounds, Timing::EachLaunch, run, after)
}

/// [`interleaved`] with the launches timed as `timing` says.
pub fn interleaved_timed(
    gpu: &Gpu,
    cfg: &BenchConfig,
    n: usize,
    n_rounds: usize,
    timing: Timing,
    run: impl FnMut(usize, usize) -> Result<()>,
) -> Result<Vec<Vec<f64>>> {
    rounds_of(gpu, cfg, n, n_rounds, timing, run, |_| Ok(()))
}

fn rounds_of(
    gpu: &Gpu,
    cfg: &BenchConfig,
    n: usize,
    n_rounds: usize,
    timing: Timing,
    mut run: impl FnMut(usize, usize) -> Result<()>,
    mut after: impl FnMut(usize) -> Result<()>,
) -> Result<Vec<Vec<f64>>> {
    let mut times = vec![Vec::with_capacity(n_rounds); n];
    for r in 0..n_rounds {
        for x in order(r, n) {
            times[x].push(time_with(gpu, cfg, timing, |i| run(x, i))?.median);
            after(x)?;
        }
    }
    Ok(times)
}

/// Per-round ratios `peer[r] / ours[r]` (times: > 1 means ours is faster).
pub fn ratios(peer_ms: &[f64], ours_ms: &[f64]) -> Vec<f64> {
    assert_eq!(
        peer_ms.len(),
        ours_ms.len(),
        "one time per round on each side"
    );
    peer_ms.iter().zip(ours_ms).map(|(p, o)| p / o).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contestant_runs_once_per_round_and_leads_equally_often() {
        for n in 1..=5 {
            let mut leads = vec![0; n];
            for r in 0..4 * n {
                let o = order(r, n);
                let mut sorted = o.clone();
                sorted.sort();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "round {r} of {n}");
                leads[o[0]] += 1;
            }
            assert!(leads.iter().all(|&l| l == 4), "{n}: {leads:?}");
        }
        assert_eq!(order(1, 3), vec![1, 2, 0]);
    }

    #[test]
    fn ratios_are_peer_time_over_ours_per_round() {
        // A clock that sags 20% over the rounds moves both sides; the per-round ratio stays.
        let peer = [1.0, 1.1, 1.2];
        let ours = [1.05, 1.155, 1.26];
        for r in ratios(&peer, &ours) {
            assert!((r - 1.0 / 1.05).abs() < 1e-12, "{r}");
        }
    }
}
