//! The tensor-core fragment problems under Nsight Compute: [`run`] launches every variant once (shipped, then
//! unswizzled, problem by problem; problem 1.1 with n = [`N`]); [`compare`] joins ncu's per-launch counts (in
//! launch order) with the bank model's predictions from the same variants' declared accesses. What
//! `swz profile fragments` runs.

use crate::ncu::split_csv;
use gpu_kernels::fragments::{Variant, FRAGMENTS, SPECS};
use gpu_kernels::frame::{verify::verify, Family, Size};
use gpu_kernels::runtime::{Error, Gpu, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use swizzle_core::bank::Op;

/// The problems' `n` (problem 1.1's row count) in the profiled launches.
pub const N: u32 = 8;

/// The ncu metrics [`compare`] reads (ncu's SASS counters cover `ld.shared`/`st.shared` but neither ldmatrix nor
/// stmatrix; the bank-conflict counters cover all four).
pub const METRICS: &str = "smsp__inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_shared_ld.sum,\
smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_op_stsm.sum";

/// Predicted (instructions, wavefronts, ideal) per kind: "ldsm", "stsm", "lds", "sts".
pub fn predict(v: Variant) -> BTreeMap<&'static str, (u64, u64, u64)> {
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

/// One verified launch of every variant, in [`SPECS`] order (what `compare` expects from ncu).
pub fn run(gpu: &Gpu) -> Result<String> {
    let mut text = String::new();
    for v in SPECS {
        verify(gpu, &FRAGMENTS, &v, Size::mnk(16, 16, N))?;
        let _ = writeln!(text, "launch: {}", v.name());
    }
    Ok(text)
}

/// ncu `--csv` (long format): one row per (launch ID, metric).
fn read_ncu(path: &str, text: &str) -> Result<Vec<BTreeMap<String, f64>>> {
    let bad = |what: &str| Error::Invalid(format!("{path}: {what}"));
    let mut lines = text.lines().filter(|l| l.starts_with('"'));
    let head = lines.next().ok_or_else(|| bad("no CSV header"))?;
    let cols: Vec<String> = split_csv(head);
    let at = |n: &str| {
        cols.iter()
            .position(|c| c == n)
            .ok_or_else(|| bad(&format!("no column {n}")))
    };
    let (id, name, value) = (at("ID")?, at("Metric Name")?, at("Metric Value")?);
    let mut by_id: BTreeMap<u64, BTreeMap<String, f64>> = BTreeMap::new();
    for l in lines {
        let f = split_csv(l);
        if f.len() < cols.len() {
            continue;
        }
        let v: f64 = f[value].replace(',', "").parse().unwrap_or(f64::NAN);
        by_id
            .entry(f[id].parse().map_err(|_| bad("bad ID"))?)
            .or_default()
            .insert(f[name].clone(), v);
    }
    Ok(by_id.into_values().collect())
}

/// Checks, per launch: ldmatrix instructions; `ld.shared`/`st.shared` wavefronts (ncu's SASS counters cover
/// those two and neither ldmatrix nor stmatrix); and excess wavefronts (ncu's bank-conflict counters, which do
/// cover ldmatrix and stmatrix) against the model's excess. ncu's total shared wavefronts are printed beside the
/// model's total: they differ by a per-kernel constant that does not depend on the layout.
/// `csvs` are `(path, text)` of ncu's CSVs of [`run`] (their metrics are merged per launch); returns the table
/// and whether every count matched.
pub fn compare(csvs: &[(String, String)]) -> Result<(String, bool)> {
    let mut rows: Vec<BTreeMap<String, f64>> = Vec::new();
    for (path, text) in csvs {
        for (i, r) in read_ncu(path, text)?.into_iter().enumerate() {
            if i == rows.len() {
                rows.push(BTreeMap::new());
            }
            rows[i].extend(r);
        }
    }
    let vs = SPECS;
    if rows.len() != vs.len() {
        return Err(Error::Invalid(format!(
            "{} profiled launches for {} variants",
            rows.len(),
            vs.len()
        )));
    }
    let mut ok = true;
    let mut out = String::new();
    let _ = writeln!(
        out,"| variant | ldmatrix instr | lds wavefronts | sts wavefronts | ld excess (ldmatrix + lds) | st excess (stmatrix + sts) | all smem wavefronts |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
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
        let _ = write!(out, "| {} |", v.name());
        for (n, m) in cells {
            let _ = write!(out, " {n} / {m} |");
        }
        let _ = writeln!(
            out,
            " {ncu_total} / {total} (+{}) |{}",
            ncu_total - total as f64,
            if good { "" } else { " **differs**" }
        );
    }
    let _ = writeln!(out, "\n(cells: ncu / model)");
    Ok((out, ok))
}

/// Every variant's predicted (instructions, wavefronts, ideal wavefronts) per instruction kind, one line each.
pub fn predictions() -> String {
    let mut text = String::new();
    for v in SPECS {
        let _ = writeln!(text, "{}: {:?}", v.name(), predict(v));
    }
    text
}

/// Every variant's generated header, each under a `// ==== name` line.
pub fn headers() -> String {
    let mut text = String::new();
    for v in SPECS {
        let _ = writeln!(
            text,
            "// ==== {}\n{}",
            v.name(),
            FRAGMENTS.header(&v).render()
        );
    }
    text
}
