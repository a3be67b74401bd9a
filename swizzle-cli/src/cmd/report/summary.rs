//! The summary layer of `swz report`: one row per shipped shared-memory layout (family, kernel, layout, what each
//! smem access costs against its ideal, verdict), printed first as a table and written as JSON by `--json`.
//!
//! Rows come from gpu-kernels' family registry (every family's specs and their accesses as data). Verdicts:
//! `conflict-free`; `conflicts by design` for the deliberate baselines (specs whose family marks an access as
//! conflicting on purpose, e.g. the unpadded transpose tiles and the unswizzled fragment kernels); `CONFLICTS` for
//! anything else (a shipped layout that should be conflict-free and is not).
use gpu_kernels::frame::SpecInfo;
use gpu_kernels::registry::FAMILIES;
use serde_json::{json, Value};
use swizzle_core::pattern::TileReport;

/// One shipped spec of one family.
pub struct Row {
    pub family: &'static str,
    pub kernel: String,
    /// The distinct shared-memory layouts its accesses touch.
    pub layout: String,
    /// Per smem access: its label and the bank model's tile report.
    pub accesses: Vec<(&'static str, TileReport)>,
    /// The family declares (some of) its accesses as conflicting on purpose: a baseline.
    pub baseline: bool,
}

impl Row {
    fn of(family: &'static str, spec: &SpecInfo) -> Row {
        let mut layouts: Vec<String> = Vec::new();
        for a in &spec.accesses {
            let l = a.smem.to_string();
            if !layouts.contains(&l) {
                layouts.push(l);
            }
        }
        Row {
            family,
            kernel: format!("{} {}", spec.name, spec.elem),
            layout: layouts.join("; "),
            accesses: spec
                .accesses
                .iter()
                .map(|a| (a.label, a.access.report(&a.smem)))
                .collect(),
            baseline: spec.accesses.iter().any(|a| !a.conflict_free),
        }
    }

    pub fn conflicts(&self) -> bool {
        self.accesses.iter().any(|(_, r)| r.conflicts() > 0)
    }

    /// The access with the most wavefronts per ideal wavefront.
    fn worst(&self) -> Option<&(&'static str, TileReport)> {
        self.accesses.iter().max_by(|(_, a), (_, b)| {
            let r = |t: &TileReport| t.wavefronts as f64 / t.ideal.max(1) as f64;
            r(a).total_cmp(&r(b))
        })
    }

    pub fn verdict(&self) -> &'static str {
        match (self.conflicts(), self.baseline) {
            (false, _) => "conflict-free",
            (true, true) => "conflicts by design",
            (true, false) => "CONFLICTS",
        }
    }
}

/// Every shipped spec with shared-memory accesses, family by family, in the order of the detailed report.
pub fn rows() -> Vec<Row> {
    FAMILIES
        .iter()
        .flat_map(|f| {
            f.spec_infos()
                .into_iter()
                .filter(|s| !s.accesses.is_empty())
                .map(move |s| Row::of(f.name(), &s))
        })
        .collect()
}

/// `wavefronts / ideal` as `1.00x`.
fn ratio(r: &TileReport) -> String {
    format!("{:.2}x", r.wavefronts as f64 / r.ideal.max(1) as f64)
}

/// The summary as a markdown table, with a count line under it.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| family | kernel | layout | worst smem access | verdict |\n|---|---|---|---|---|\n",
    );
    for r in rows {
        let worst = r
            .worst()
            .map_or("-".to_string(), |(name, t)| format!("{name} {}", ratio(t)));
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.family,
            r.kernel,
            r.layout,
            worst,
            r.verdict()
        ));
    }
    let free = rows.iter().filter(|r| !r.conflicts()).count();
    let by_design = rows.iter().filter(|r| r.conflicts() && r.baseline).count();
    let bad = rows.len() - free - by_design;
    s.push_str(&format!(
        "\n{} layouts: {free} conflict-free, {by_design} conflict by design (baselines), {bad} unexpected conflicts \
         (worst smem access: wavefronts per ideal wavefront, 1.00x = conflict-free)\n",
        rows.len()
    ));
    s
}

/// The layout report as JSON: `{"layouts": [{family, kernel, layout, verdict, accesses: [{access, instructions,
/// wavefronts, ideal, conflicts}]}]}`.
pub fn json(rows: &[Row]) -> Value {
    let layouts: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "family": r.family,
                "kernel": r.kernel,
                "layout": r.layout,
                "verdict": r.verdict(),
                "accesses": r.accesses.iter().map(|(name, t)| json!({
                    "access": name,
                    "instructions": t.instructions,
                    "wavefronts": t.wavefronts,
                    "ideal": t.ideal,
                    "conflicts": t.conflicts(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "layouts": layouts })
}
