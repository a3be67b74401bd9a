//! The L2 model against Nsight Compute on an H100: `dram__bytes_read.sum` and `lts__t_sector_hit_rate.pct` of
//! gpu-kernels' matmul_l2 (fp32, 32x32 tiles), one profiled launch per (shape, order), L2 flushed before each
//! (collected by `scripts/device.sh l2`).
//! `tests/data/l2_ncu_h100.json`: the L2 study's six shapes x 14 orders. `tests/data/l2_ncu_h100_short_k.json`:
//! 16384x16384x256 and 12288x12288x128 (short K, wide C: the stores of C dominate the L2 traffic).
//!
//! **Fit set and held-out set.** Four numbers of the model were chosen by comparing with measurements: the LRU
//! capacity (25 MiB) on 4096^3, and the crowded pool (8% of the chunks, 13 MiB) on the short-K cases below
//! ([`fit_set`]). The stagger (50%) predates this split: it was chosen with all six study shapes in view, so
//! 8192^3 is held out of the capacity and crowded-pool fits but not of the stagger's. Everything else is held out and checked here without having been fitted on:
//! 8192^3 (all 14 orders read over 1 GB), 2048^3, 1024^3, 1024x1024x128, and on 16384x16384x128 the three orders
//! whose ranking the model must get right (identity, strip 4, group-m 8).
//!
//! Checks: within +-25% of the measured DRAM bytes on every case over 1 GB (4096^3: 11 cases in the fit set;
//! 8192^3: 14 held out); identity < group-m 8 < strip 4 on 16384x16384x128, as measured (21.5, 69.4, 82.2 MB); the
//! order the model ranks first reads, measured, within 5% of the measured best on the shapes where orders read
//! over 1 GB (4096^3, 8192^3). Prints the table
//! (`cargo test --release -p swizzle-core --test l2_ncu -- --nocapture`); `-- --ignored` reruns the fit.

use std::collections::BTreeMap;
use swizzle_core::l2::{predict, L2Config, Machine, Prediction, Schedule};
use swizzle_core::raster::Raster;
use swizzle_core::Size;

struct Case {
    gemm: Size,
    order: Raster,
    dram: f64,
    hit: f64,
}

fn load(text: &str) -> Vec<Case> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            gemm: c["gemm"].as_str().unwrap().parse().unwrap(),
            order: c["order"].as_str().unwrap().parse().unwrap(),
            dram: c["dram__bytes_read.sum"].as_f64().unwrap(),
            hit: c["lts__t_sector_hit_rate.pct"].as_f64().unwrap() / 100.0,
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let mut all = load(include_str!("data/l2_ncu_h100.json"));
    all.extend(load(include_str!("data/l2_ncu_h100_short_k.json")));
    all
}

/// The three orders of 16384x16384x128 the model must rank as measured, held out of every fit.
const RANKED: [Raster; 3] = [
    Raster::Identity,
    Raster::GroupM { group: 8 },
    Raster::Strip { tile: 4 },
];

fn is(c: &Case, g: &str) -> bool {
    c.gemm == g.parse().unwrap()
}

/// Cases the crowded pool was fitted on: both short-K shapes, and 16384x16384x128 without the ranked three.
fn fit_set(c: &Case) -> bool {
    is(c, "16384x16384x256")
        || is(c, "12288x12288x128")
        || (is(c, "16384x16384x128") && !RANKED.contains(&c.order))
}

/// Cases the capacity and the stagger were fitted on.
fn capacity_fit_set(c: &Case) -> bool {
    is(c, "4096x4096x4096")
}

fn held_out(c: &Case) -> bool {
    !fit_set(c) && !capacity_fit_set(c)
}

fn dram(c: &Case, m: Machine, s: Schedule) -> u64 {
    let mut cfg = L2Config::new(c.gemm, c.order, m);
    cfg.schedule = s;
    predict(&cfg).unwrap().dram_read_bytes
}

#[test]
fn model_matches_ncu_on_the_h100() {
    let cases = cases();
    assert_eq!(
        cases.len(),
        84 + 27,
        "6 shapes x 14 orders, 2 short-K shapes (Morton needs 2^n x 2^n)"
    );
    assert_eq!(cases.iter().filter(|c| held_out(c)).count(), 14 * 4 + 3);
    let mut by_shape: BTreeMap<String, Vec<(&Case, Prediction)>> = BTreeMap::new();
    for c in &cases {
        let p = predict(&L2Config::new(c.gemm, c.order, Machine::H100)).unwrap();
        by_shape.entry(c.gemm.to_string()).or_default().push((c, p));
    }
    println!("| GEMM | order | set | DRAM read, ncu (GB) | model (GB) | error | L2 hit, ncu | model | error (points) |");
    println!("|---|---|---|--:|--:|--:|--:|--:|--:|");
    let mut misses = Vec::new();
    for rows in by_shape.values() {
        for (c, p) in rows {
            let err = (p.dram_read_bytes as f64 - c.dram) / c.dram;
            let big = c.dram > 1e9;
            println!(
                "| {} | {} | {} | {:.4} | {:.4} | {}{:+.1}%{} | {:.1}% | {:.1}% | {:+.1} |",
                c.gemm,
                c.order,
                if held_out(c) { "held out" } else { "fit" },
                c.dram / 1e9,
                p.dram_read_bytes as f64 / 1e9,
                if big { "**" } else { "" },
                100.0 * err,
                if big { "**" } else { "" },
                100.0 * c.hit,
                100.0 * p.l2_hit_rate,
                100.0 * (p.l2_hit_rate - c.hit)
            );
            if big && err.abs() > 0.25 {
                misses.push(format!("{} {}: {:+.1}%", c.gemm, c.order, 100.0 * err));
            }
        }
        let measured_best = rows
            .iter()
            .map(|(c, _)| c.dram)
            .fold(f64::INFINITY, f64::min);
        let (pick, _) = rows.iter().min_by_key(|(_, p)| p.dram_read_bytes).unwrap();
        let (best, _) = rows
            .iter()
            .min_by(|a, b| a.0.dram.total_cmp(&b.0.dram))
            .unwrap();
        println!(
            "\n{}: model's pick {} reads {:.4} GB, measured best {} {:.4} GB\n",
            pick.gemm,
            pick.order,
            pick.dram / 1e9,
            best.order,
            measured_best / 1e9
        );
        // Where every order reads under 1 GB the order cannot cost measurable time (0.1 GB at 3 TB/s is 33 us),
        // so the pick is printed, not held to 5%: the model misses it on 2048^3 (held out: group-m 8 reads
        // 22% more than identity) and 16384x16384x256 (fit: Morton reads 13% less than the pick).
        let matters = measured_best > 1e9;
        if matters && pick.dram > 1.05 * measured_best {
            misses.push(format!(
                "{}: model picks {}, measured best is {}",
                pick.gemm, pick.order, best.order
            ));
        }
    }
    // The ranking of the three held-out orders on 16384x16384x128, measured and predicted.
    let narrow = &by_shape["16384x16384x128"];
    let ranked = |key: &dyn Fn(&(&Case, Prediction)) -> f64| {
        RANKED.map(|r| key(narrow.iter().find(|(c, _)| c.order == r).unwrap()))
    };
    let measured = ranked(&|(c, _)| c.dram);
    let model = ranked(&|(_, p)| p.dram_read_bytes as f64);
    assert!(
        measured[0] < measured[1] && measured[1] < measured[2],
        "{measured:?}"
    );
    if !(model[0] < model[1] && model[1] < model[2]) {
        misses.push(format!(
            "16384x16384x128: model reads identity {:.1}, group-m 8 {:.1}, strip 4 {:.1} MB; measured {:.1} < {:.1} < {:.1}",
            model[0] / 1e6, model[1] / 1e6, model[2] / 1e6, measured[0] / 1e6, measured[1] / 1e6, measured[2] / 1e6
        ));
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

/// Sum over cases of |ln(model / measured)|: every case weighs the same whatever its size.
fn log_error(cases: &[&Case], m: Machine, s: Schedule) -> f64 {
    cases
        .iter()
        .map(|c| (dram(c, m, s) as f64 / c.dram).ln().abs())
        .sum()
}

/// The fit, rerun: the capacity share and stagger minimise the log error on 4096^3 over a grid, then the crowded
/// pool (share, capacity) over a grid on the short-K fit set. Fails if the shipped H100 constants are not the
/// minimisers. Slow in a debug build: run with `--release -- --ignored`.
#[test]
#[ignore = "refits the model (about 5 minutes in release)"]
fn shipped_constants_are_the_fit() {
    let cases = cases();
    let cap_set: Vec<&Case> = cases.iter().filter(|c| capacity_fit_set(c)).collect();
    let fit: Vec<&Case> = cases.iter().filter(|c| fit_set(c)).collect();
    let h = Machine::H100;
    let plain = Machine {
        crowded_per_mille: 0,
        ..h
    };
    // The capacity share, at the shipped stagger.
    let mut best = (f64::INFINITY, 0);
    for mib in [16u64, 20, 25, 32, 40] {
        let m = Machine {
            l2_bytes: (mib << 20) * plain.partitions as u64,
            ..plain
        };
        let e = log_error(&cap_set, m, Schedule::CALIBRATED);
        println!("capacity {mib} MiB: {e:.3}");
        if e < best.0 {
            best = (e, mib);
        }
    }
    assert_eq!(best.1 << 20, h.effective_l2_bytes());
    // The stagger was chosen before this split, with every shape in view; on 4096^3 alone a sliding window
    // (100%) fits a little better (log error 0.197 vs 0.224) but reads 2048^3 (held out) 3.3x too high.
    // Printed, not asserted.
    for pct in [0, 50, 75, 100] {
        let e = log_error(&cap_set, plain, Schedule { stagger_pct: pct });
        println!("stagger {pct}%: {e:.3}");
    }
    let mut best = (f64::INFINITY, 0, 0);
    for per_mille in [0u32, 40, 80, 120, 160, 200] {
        for mib in [11u64, 12, 13, 14, 15, 16, 17, 18, 20] {
            let m = Machine {
                crowded_per_mille: per_mille,
                crowded_bytes: mib << 20,
                ..h
            };
            let e = log_error(&fit, m, Schedule::CALIBRATED);
            println!("crowded {per_mille}/1000 at {mib} MiB: {e:.3}");
            if e < best.0 {
                best = (e, per_mille, mib);
            }
        }
    }
    assert_eq!(
        (best.1, best.2 << 20),
        (h.crowded_per_mille, h.crowded_bytes)
    );
}
