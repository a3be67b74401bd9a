//! Seed 002 under Nsight Compute: `seed002_profile run` launches every variant once (shipped, then unswizzled,
//! problem by problem; 1.1 with n = 8); `seed002_profile compare NCU.csv...` joins ncu's per-launch counts (in launch
//! order) with the bank model's predictions from the same variants' declared accesses and prints a markdown
//! table. Exit 1 if any ldmatrix or store count differs from the prediction.

use gpu_kernels::frame::{verify::verify, Family, Size};
use gpu_kernels::seed002::{Variant, SEED002};
use std::collections::BTreeMap;
use std::process::ExitCode;
use swizzle_core::bank::Op;

const N: u32 = 8;

/// Predicted (instructions, wavefronts, ideal) per kind: "ldsm", "stsm", "lds", "sts".
fn predict(v: Variant) -> BTreeMap<&'static str, (u64, u64, u64)> {
    let mut m = BTreeMap::new();
    for (a, times) in v.uses_per_launch(N) {
        let key = match a.access.op(&a.smem) {
            Op::Ldmatrix { .. } => "ldsm",
            Op::Stmatrix { .. } => "stsm",
            Op::Lds(_) => "lds",
            Op::Sts(_) => "sts",
        };
        let r = a.access.report(&a.smem);
        let t = times as u64;
        let e = m.entry(key).or_insert((0, 0, 0));
        *e = (
            e.0 + r.instructions as u64 * t,
            e.1 + r.wavefronts * t,
            e.2 + r.ideal * t,
        );
    }
    m
}

/// One verified launch of every variant, in [`Variant::all`] order (what `compare` expects from ncu).
fn run() -> Result<(), String> {
    let gpu = gpu_kernels::Gpu::open(0).map_err(|e| e.to_string())?;
    for v in Variant::all() {
        verify(&gpu, &SEED002, &v, Size::mnk(16, 16, N)).map_err(|e| e.to_string())?;
        eprintln!("ran {}", v.name());
    }
    Ok(())
}

/// ncu `--csv` (long format): one row per (launch ID, metric).
fn read_ncu(path: &str) -> Result<Vec<BTreeMap<String, f64>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = text.lines().filter(|l| l.starts_with('"'));
    let head = lines.next().ok_or("no CSV header")?;
    let cols: Vec<String> = split(head);
    let at = |n: &str| {
        cols.iter()
            .position(|c| c == n)
            .ok_or(format!("no column {n}"))
    };
    let (id, name, value) = (at("ID")?, at("Metric Name")?, at("Metric Value")?);
    let mut by_id: BTreeMap<u64, BTreeMap<String, f64>> = BTreeMap::new();
    for l in lines {
        let f = split(l);
        let v: f64 = f[value].replace(',', "").parse().unwrap_or(f64::NAN);
        by_id
            .entry(f[id].parse().map_err(|_| "bad ID")?)
            .or_default()
            .insert(f[name].clone(), v);
    }
    Ok(by_id.into_values().collect())
}

fn split(line: &str) -> Vec<String> {
    line.trim_matches('"')
        .split("\",\"")
        .map(str::to_string)
        .collect()
}

/// Checks, per launch: ldmatrix instructions; `ld.shared`/`st.shared` wavefronts (ncu's SASS counters cover
/// those two and neither ldmatrix nor stmatrix); and excess wavefronts (ncu's bank-conflict counters, which do
/// cover ldmatrix and stmatrix) against the model's excess. ncu's total shared wavefronts are printed beside the
/// model's total: they differ by a per-kernel constant that does not depend on the layout.
fn compare(paths: &[&str]) -> Result<bool, String> {
    let mut rows: Vec<BTreeMap<String, f64>> = Vec::new();
    for path in paths {
        for (i, r) in read_ncu(path)?.into_iter().enumerate() {
            if i == rows.len() {
                rows.push(BTreeMap::new());
            }
            rows[i].extend(r);
        }
    }
    let vs = Variant::all();
    if rows.len() != vs.len() {
        return Err(format!(
            "{} profiled launches for {} variants",
            rows.len(),
            vs.len()
        ));
    }
    let mut ok = true;
    println!("| variant | ldmatrix instr | lds wavefronts | sts wavefronts | ld excess (ldmatrix + lds) | st excess (stmatrix + sts) | all smem wavefronts |");
    println!("|---|---|---|---|---|---|---|");
    for (v, m) in vs.iter().zip(&rows) {
        let p = predict(*v);
        let g = |k: &str| p.get(k).copied().unwrap_or((0, 0, 0));
        let (ldsm, lds, sts, stsm) = (g("ldsm"), g("lds"), g("sts"), g("stsm"));
        let get = |k: &str| m.get(k).copied().unwrap_or(f64::NAN);
        let cells = [
            (get("smsp__inst_executed_op_ldsm.sum"), ldsm.0),
            (
                get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                lds.1,
            ),
            (
                get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
                sts.1,
            ),
            (
                get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
                ldsm.1 - ldsm.2 + lds.1 - lds.2,
            ),
            (
                get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
                stsm.1 - stsm.2 + sts.1 - sts.2,
            ),
        ];
        let good = cells.iter().all(|(n, m)| *n == *m as f64);
        ok &= good;
        let total = ldsm.1 + lds.1 + sts.1 + stsm.1;
        let ncu_total = get("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
        print!("| {} |", v.name());
        for (n, m) in cells {
            print!(" {n} / {m} |");
        }
        println!(
            " {ncu_total} / {total} (+{}) |{}",
            ncu_total - total as f64,
            if good { "" } else { " **differs**" }
        );
    }
    println!("\n(cells: ncu / model)");
    Ok(ok)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["run"] => run().map(|_| true),
        ["compare", ref paths @ ..] if !paths.is_empty() => compare(paths),
        ["header"] => {
            for v in Variant::all() {
                println!("// ==== {}\n{}", v.name(), SEED002.header(&v).render());
            }
            Ok(true)
        }
        ["predict"] => {
            for v in Variant::all() {
                println!("{}: {:?}", v.name(), predict(v));
            }
            Ok(true)
        }
        _ => Err("usage: seed002_profile run | compare NCU.csv... | predict | header".into()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("seed002_profile: {e}");
            ExitCode::from(2)
        }
    }
}
