//! The summary layer of `swz report`: one row per shipped shared-memory layout (family, kernel, layout, what each
//! smem access costs against its ideal, verdict), printed first as a table and written as JSON by `--json`.
//!
//! Verdicts: `conflict-free`; `conflicts by design` for the deliberate baselines (the unpadded tiles the padded
//! and swizzled kernels are measured against, see `gpu_kernels::transpose::smem`); `CONFLICTS` for anything else
//! (a shipped layout that should be conflict-free and is not).
use gpu_kernels::transpose::smem::{Access, Layout, SmemSpec, SPECS};
use serde_json::{json, Value};
use swizzle_core::pattern::TileReport;

/// One layout of one shipped kernel.
pub struct Row {
    pub family: &'static str,
    pub kernel: String,
    pub layout: String,
    /// Per smem access: its name and the bank model's tile report.
    pub accesses: Vec<(&'static str, TileReport)>,
    pub baseline: bool,
}

impl Row {
    fn of(spec: &SmemSpec) -> Row {
        let layout = match spec.layout() {
            Layout::Unpadded => "unpadded".to_string(),
            Layout::Padded => format!("padded +{} {}", spec.pad, spec.elem),
            Layout::Swizzled => format!("{} on {}", spec.swizzle, spec.elem),
        };
        Row {
            family: "transpose",
            kernel: format!("{} {}", spec.name, spec.elem),
            layout,
            accesses: Access::BOTH
                .iter()
                .map(|&a| (a.name(), spec.tile_report(a)))
                .collect(),
            baseline: spec.layout() == Layout::Unpadded,
        }
    }

    pub fn conflicts(&self) -> bool {
        self.accesses.iter().any(|(_, r)| r.conflicts() > 0)
    }

    pub fn verdict(&self) -> &'static str {
        match (self.conflicts(), self.baseline) {
            (false, _) => "conflict-free",
            (true, true) => "conflicts by design",
            (true, false) => "CONFLICTS",
        }
    }
}

/// Every shipped layout, in the order of the detailed report.
pub fn rows() -> Vec<Row> {
    SPECS.iter().map(Row::of).collect()
}

/// `wavefronts / ideal` as `1.00x`.
fn ratio(r: &TileReport) -> String {
    format!("{:.2}x", r.wavefronts as f64 / r.ideal.max(1) as f64)
}

/// The summary as a markdown table, with a count line under it.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| family | kernel | layout | smem write | smem read | verdict |\n|---|---|---|---:|---:|---|\n",
    );
    for r in rows {
        let cost = |name: &str| {
            r.accesses
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("-".to_string(), |(_, t)| ratio(t))
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.family,
            r.kernel,
            r.layout,
            cost("write"),
            cost("read"),
            r.verdict()
        ));
    }
    let free = rows.iter().filter(|r| !r.conflicts()).count();
    let by_design = rows.iter().filter(|r| r.conflicts() && r.baseline).count();
    let bad = rows.len() - free - by_design;
    s.push_str(&format!(
        "\n{} layouts: {free} conflict-free, {by_design} conflict by design (baselines), {bad} unexpected conflicts \
         (smem write/read: wavefronts per ideal wavefront, 1.00x = conflict-free)\n",
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
