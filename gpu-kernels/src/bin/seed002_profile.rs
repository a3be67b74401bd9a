//! Seed 002 under Nsight Compute: `seed002_profile run` launches every variant once (shipped, then unswizzled,
//! problem by problem; 1.1 with n = 8); `seed002_profile compare NCU.csv` joins ncu's per-launch counts (in launch
//! order) with the bank model's predictions from the same variants' declared accesses and prints a markdown
//! table. Exit 1 if any ldmatrix or store count differs from the prediction.

use gpu_kernels::seed002::{self, Variant};
use std::collections::BTreeMap;
use std::process::ExitCode;

const N: u32 = 8;

/// Predicted (instructions, wavefronts, ideal) per kind: "ldsm", "lds", "sts" (sts128 + stmatrix).
fn predict(v: Variant) -> BTreeMap<&'static str, (u64, u64, u64)> {
    let mut m = BTreeMap::new();
    for a in v.accesses(N) {
        let key = if a.is_ldmatrix() {
            "ldsm"
        } else if a.is_store() {
            if matches!(
                a.pattern.op(a.smem.tile.elem),
                swizzle_core::bank::Op::Stmatrix { .. }
            ) {
                "stsm"
            } else {
                "sts"
            }
        } else {
            "lds"
        };
        let (i, w, id) = a.cost();
        let e = m.entry(key).or_insert((0, 0, 0));
        *e = (e.0 + i, e.1 + w, e.2 + id);
    }
    m
}

fn run() -> Result<(), String> {
    let gpu = gpu_kernels::Gpu::open(0).map_err(|e| e.to_string())?;
    for v in Variant::all() {
        let outs = seed002::run(&gpu, v, N, 5).map_err(|e| format!("{}: {e}", v.name()))?;
        for (got, want) in &outs {
            let err = seed002::max_rel_err(got, want);
            if !(err <= seed002::tolerance(v.problem)) {
                return Err(format!("{}: wrong result ({err:.2e})", v.name()));
            }
        }
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

fn compare(path: &str) -> Result<bool, String> {
    let rows = read_ncu(path)?;
    let vs = Variant::all();
    if rows.len() != vs.len() {
        return Err(format!(
            "{} profiled launches for {} variants",
            rows.len(),
            vs.len()
        ));
    }
    let mut ok = true;
    println!("| variant | ldmatrix instr (ncu / model) | ld wavefronts (ncu / model; ideal) | st wavefronts (ncu / model sts+stsm; ideal) | ld bank conflicts (ncu) | st bank conflicts (ncu) |");
    println!("|---|---|---|---|---|---|");
    for (v, m) in vs.iter().zip(&rows) {
        let p = predict(*v);
        let g = |k: &str| p.get(k).copied().unwrap_or((0, 0, 0));
        let (ldsm, lds, sts, stsm) = (g("ldsm"), g("lds"), g("sts"), g("stsm"));
        let get = |k: &str| m.get(k).copied().unwrap_or(f64::NAN);
        let ldsm_i = get("smsp__inst_executed_op_ldsm.sum");
        let ld_w = get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
        let st_w = get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
        let model_ld = ldsm.1 + lds.1;
        let model_st = sts.1 + stsm.1;
        let good = ldsm_i == ldsm.0 as f64 && ld_w == model_ld as f64 && st_w == model_st as f64;
        ok &= good;
        println!(
            "| {} | {ldsm_i} / {} | {ld_w} / {model_ld}; {} | {st_w} / {model_st} ({} + {}); {} | {} | {} |{}",
            v.name(),
            ldsm.0,
            ldsm.2 + lds.2,
            sts.1,
            stsm.1,
            sts.2 + stsm.2,
            get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
            if good { "" } else { " **differs**" }
        );
    }
    Ok(ok)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["run"] => run().map(|_| true),
        ["compare", path] => compare(path),
        ["header"] => {
            for v in Variant::all() {
                println!("// ==== {}\n{}", v.name(), v.header());
            }
            Ok(true)
        }
        ["predict"] => {
            for v in Variant::all() {
                println!("{}: {:?}", v.name(), predict(v));
            }
            Ok(true)
        }
        _ => Err("usage: seed002_profile run | compare NCU.csv | predict | header".into()),
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
