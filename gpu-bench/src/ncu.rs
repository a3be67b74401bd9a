//! Predicted vs measured shared-memory wavefronts under Nsight Compute, for any family of the registry: what
//! `swz profile FAMILY` runs. The bank model reads the family's accesses as data ([`crate::profile`]); this module
//! launches the profiled specs for ncu and compares ncu's CSV with the predictions.
//!
//! On the device (`scripts/device.sh ncu` runs exactly this):
//! ```text
//! ncu --clock-control none --kernel-name "regex:$(swz profile transpose entries)" --csv --log-file kernel.csv \
//!     --metrics "$(swz profile transpose metrics)" swz profile transpose run
//! swz profile transpose compare kernel.csv
//! ```

use crate::profile::{predictions, Predicted, SpecPrediction};
use gpu_kernels::frame::DynFamily;
use gpu_kernels::runtime::{Error, Gpu, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The ncu metrics [`compare`] reads: the hardware's shared-memory wavefronts, bank conflicts and instructions,
/// loads and stores, then the per-instruction (SASS-patched) ones ([`SASS_METRICS`]).
pub const METRICS: &str = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,\
smsp__sass_inst_executed_op_shared_st.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";

/// Per-instruction (SASS-patched) counts: the wavefronts each instruction's own addresses cost, whatever else the
/// SM's L1 serves at the time. The hardware counters of a kernel that also moves global data include the cycles
/// its shared accesses wait behind that traffic (counted as extra wavefronts and "bank conflicts"); these do not.
pub const SASS_METRICS: &str = "smsp__sass_inst_executed_op_shared_ld.sum,\
smsp__sass_inst_executed_op_shared_st.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";

/// Which build [`run`] launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// The shipped kernel, each launch checked against the host reference.
    Shipped,
    /// The family's shared-memory-only build (the very same smem instructions, no global traffic beside them).
    SmemOnly,
    /// The smem-only build with all the shared memory an SM has per block: one block per SM.
    OneBlock,
}

impl Build {
    pub const ALL: [Build; 3] = [Build::Shipped, Build::SmemOnly, Build::OneBlock];

    /// The name `swz profile FAMILY run --build` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Build::Shipped => "shipped",
            Build::SmemOnly => "smem-only",
            Build::OneBlock => "one-block",
        }
    }

    /// The column label in [`compare`]'s table.
    pub const fn label(self) -> &'static str {
        match self {
            Build::Shipped => "kernel",
            Build::SmemOnly => "smem only",
            Build::OneBlock => "smem only, 1 block/SM",
        }
    }
}

/// The builds `f` has, in [`Build::ALL`] order: all three for a family with a shared-memory-only build
/// ([`Parts::profile`](gpu_kernels::frame::Parts::profile)), the shipped one alone otherwise.
pub fn builds(f: &dyn DynFamily) -> &'static [Build] {
    if f.has_smem_only() {
        &Build::ALL
    } else {
        &Build::ALL[..1]
    }
}

/// `build` when `f` has it; otherwise the reason, naming the builds it has.
pub fn check_build(f: &dyn DynFamily, build: Build) -> Result<()> {
    if builds(f).contains(&build) {
        return Ok(());
    }
    let names: Vec<&str> = builds(f).iter().map(|b| b.name()).collect();
    Err(Error::Invalid(format!(
        "{} has no {} build (it has: {})",
        f.name(),
        build.name(),
        names.join(" ")
    )))
}

/// The specs that are profiled: those with a shared-load or shared-store prediction, with their index in the
/// family's spec list.
pub fn profiled(f: &dyn DynFamily) -> Vec<(usize, SpecPrediction)> {
    predictions(f)
        .into_iter()
        .enumerate()
        .filter(|(_, p)| p.load.is_some() || p.store.is_some())
        .collect()
}

/// The ncu `--kernel-name` regex of the family's profiled kernels (without the `regex:` prefix).
pub fn entries(f: &dyn DynFamily) -> String {
    let mut names: Vec<&str> = profiled(f).iter().map(|(_, p)| p.entry).collect();
    names.sort_unstable();
    names.dedup();
    format!("^({})$", names.join("|"))
}

/// Verify every spec of the family at its first (ragged) verification size, one `FAILED` line per failure and a
/// summary line: what compute-sanitizer runs over. `Ok(false)` when a spec failed.
pub fn verify_first_size(gpu: &Gpu, f: &dyn DynFamily) -> Result<(String, bool)> {
    let size = *f
        .verify_sizes()
        .first()
        .ok_or_else(|| Error::Invalid(format!("{} has no verification sizes", f.name())))?;
    let mut text = String::new();
    let mut ok = true;
    let infos = f.spec_infos();
    for (i, info) in infos.iter().enumerate() {
        if let Err(e) = f.verify_one(gpu, i, size) {
            let _ = writeln!(text, "FAILED {} {} on {size}: {e}", info.name, info.elem);
            ok = false;
        }
    }
    let _ = writeln!(
        text,
        "{}: {} specs verified on {size}",
        f.name(),
        infos.len()
    );
    Ok((text, ok))
}

/// Launch every profiled spec once at the family's size of side `n` with `build`, in [`profiled`] order (what
/// [`compare`] expects from ncu); one line per launch. The family's profile side
/// ([`Shape::profile_side`](gpu_kernels::frame::Shape::profile_side)) keeps to full tiles, so every block issues exactly the
/// modelled instructions.
pub fn run(gpu: &Gpu, f: &dyn DynFamily, n: u32, build: Build) -> Result<String> {
    run_with(gpu, f, n, build, None)
}

/// [`run`], stepping `progress` once per launch.
pub fn run_with(
    gpu: &Gpu,
    f: &dyn DynFamily,
    n: u32,
    build: Build,
    progress: Option<&crate::progress::Progress>,
) -> Result<String> {
    check_build(f, build)?;
    let size = f.size_of(n);
    let infos = f.spec_infos();
    let mut text = String::new();
    for (i, p) in profiled(f) {
        if let Some(progress) = progress {
            progress.step(&format!("{} on {size}", p.name));
        }
        match build {
            Build::Shipped => f.verify_one(gpu, i, size),
            Build::SmemOnly => f.launch_smem_only(gpu, i, size, false),
            Build::OneBlock => f.launch_smem_only(gpu, i, size, true),
        }?;
        let _ = writeln!(
            text,
            "launch {i}: {} {} ({})",
            p.name,
            infos[i].display,
            build.label()
        );
    }
    Ok(text)
}

/// ncu metric values of one profiled launch, by metric name.
type Metrics = BTreeMap<String, f64>;

fn launches(f: &dyn DynFamily, path: &str, text: &str) -> Result<Vec<Metrics>> {
    let launches = parse_ncu_csv(text).map_err(|e| Error::Invalid(format!("{path}: {e}")))?;
    let specs = profiled(f);
    if launches.len() != specs.len() {
        return Err(Error::Invalid(format!(
            "{path}: {} profiled launches, expected {}",
            launches.len(),
            specs.len()
        )));
    }
    let size = f.size_of(f.profile_side());
    for ((i, p), (block, _)) in specs.iter().zip(&launches) {
        let Some((x, y, z)) = f.launch_block(*i, size) else {
            continue;
        };
        if block.replace(' ', "") != format!("({x},{y},{z})") {
            return Err(Error::Invalid(format!(
                "{path}: launch order mismatch: {} launches block ({x}, {y}, {z}), the CSV has {block}",
                p.name
            )));
        }
    }
    Ok(launches.into_iter().map(|(_, m)| m).collect())
}

/// One direction's numbers from one profiled launch: wavefronts, instructions executed, bank conflicts.
struct Measured {
    wavefronts: f64,
    instructions: f64,
    conflicts: f64,
    /// The SASS-patched wavefronts per instruction, when the CSV has them (and counted instructions).
    sass: Option<f64>,
}

impl Measured {
    fn per_instruction(&self) -> f64 {
        self.wavefronts / self.instructions
    }
}

/// Direction `op` (`ld`/`st`) of one launch; an error names a metric the CSV lacks.
fn measured(m: &Metrics, op: &str) -> std::result::Result<Measured, String> {
    let get = |name: String| m.get(&name).copied().ok_or(format!("no {name} in the CSV"));
    Ok(Measured {
        wavefronts: get(format!(
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"
        ))?,
        instructions: get(format!("smsp__inst_executed_op_shared_{op}.sum"))?,
        conflicts: get(format!(
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"
        ))?,
        sass: match (
            m.get(&format!(
                "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"
            )),
            m.get(&format!("smsp__sass_inst_executed_op_shared_{op}.sum")),
        ) {
            (Some(&w), Some(&i)) if i > 0.0 => Some(w / i),
            _ => None,
        },
    })
}

/// Read ncu's CSVs of [`run`] (`(path, text)`, one per build in [`Build::ALL`] order; 1 to 3 of them) and print,
/// per spec and direction, the bank model's wavefronts per instruction next to ncu's; the last CSV given is the
/// one judged. With the SASS-patched counts in it ([`SASS_METRICS`]) the prediction is judged against them (what
/// the instructions' own addresses cost); a smem-only build is judged against the hardware counters as well (it
/// exists to show them equal to the model), the shipped kernel is not (its counters include the waits behind its
/// global traffic). Without them, the hardware counters are judged, and an access that must be conflict-free must
/// show no bank conflict. `Ok(false)` on a miss.
pub fn compare(f: &dyn DynFamily, csvs: &[(String, String)]) -> Result<(String, bool)> {
    let builds = builds(f);
    if csvs.is_empty() || csvs.len() > builds.len() {
        return Err(Error::Invalid(format!(
            "expected 1 to {} ncu CSVs for {} (one per build: {}), got {}",
            builds.len(),
            f.name(),
            builds
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(" "),
            csvs.len()
        )));
    }
    let runs = csvs
        .iter()
        .map(|(path, text)| launches(f, path, text))
        .collect::<Result<Vec<_>>>()?;
    let labels = Build::ALL.map(Build::label);
    let mut out = String::new();
    let _ = writeln!(out, "Predicted: swizzle-core's bank model on the {} family's smem accesses as data (wavefronts per", f.name());
    let _ = writeln!(out, "warp instruction, loads and stores apart). Measured: ncu wavefronts / instructions executed, and ncu");
    let _ = writeln!(out, "bank conflicts, for the shipped kernel, the smem-only build (identical smem instructions, no global");
    let _ = writeln!(out, "traffic) and smem-only with one block per SM (no other block's smem traffic either). Judged: the");
    let _ = writeln!(out, "last run ({}).\n", labels[runs.len() - 1]);
    let judged_build = Build::ALL[runs.len() - 1];
    // The SASS-patched counts, when the judged CSV has them for its first launch (ncu collects all or none).
    let sass = runs
        .last()
        .and_then(|r| r.first())
        .is_some_and(|m| m.keys().any(|k| k.starts_with("smsp__sass_l1tex")));
    if sass {
        let _ = writeln!(
            out,
            "The judged run's per-instruction (SASS-patched) count is the last number column.\n"
        );
    }
    let mut head = String::from("| spec | elem | direction | predicted wf/instr |");
    let mut rule = String::from("|---|---|---|--:|");
    for l in &labels[..runs.len()] {
        let _ = write!(head, " {l}: wf/instr | {l}: conflicts |");
        rule.push_str("--:|--:|");
    }
    if sass {
        let _ = write!(head, " {}: per instruction |", labels[runs.len() - 1]);
        rule.push_str("--:|");
    }
    let _ = writeln!(out, "{head} |\n{rule}---|");
    let infos = f.spec_infos();
    let mut ok = true;
    let mut checked = 0;
    let mut unmeasured = 0;
    for (n, (i, p)) in profiled(f).iter().enumerate() {
        let dirs: [(&str, &str, Option<Predicted>); 2] =
            [("ld", "load", p.load), ("st", "store", p.store)];
        for (op, dir, pred) in dirs {
            let Some(pred) = pred else { continue };
            let predicted = pred.per_instruction();
            let cells = runs
                .iter()
                .zip(csvs)
                .map(|(r, (path, _))| {
                    measured(&r[n], op).map_err(|e| format!("{path}: {} {dir}: {e}", p.name))
                })
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(Error::Invalid)?;
            let mut line = format!(
                "| {} | {} | {dir} | {predicted:.2} |",
                p.name, infos[*i].elem
            );
            for c in &cells {
                let _ = write!(line, " {:.3} | {:.0} |", c.per_instruction(), c.conflicts);
            }
            let judged = cells.last().expect("at least one CSV");
            if sass {
                match judged.sass {
                    Some(v) => {
                        let _ = write!(line, " {v:.3} |");
                    }
                    None => line.push_str(" - |"),
                }
            }
            if let Some(why) = pred.uncounted {
                // ncu counts these wavefronts but not the instructions: no ratio to judge.
                let _ = writeln!(out, "{line} not measured ({why}) |");
                unmeasured += 1;
                continue;
            }
            if let Some(((path, _), _)) =
                csvs.iter().zip(&cells).find(|(_, c)| c.instructions == 0.0)
            {
                return Err(Error::Invalid(format!(
                    "{path}: {} {dir}: ncu counted no shared {dir} instructions \
                     (smsp__inst_executed_op_shared_{op}.sum = 0) where the model predicts {} per block: the \
                     launch did not issue the modelled accesses",
                    p.name, pred.instructions
                )));
            }
            let equal = |v: f64| (predicted - v).abs() < 0.005;
            let hardware = equal(judged.per_instruction());
            let (matches, clean) = match (sass, judged.sass) {
                (true, Some(v)) => (
                    equal(v) && (judged_build == Build::Shipped || hardware),
                    true,
                ),
                (true, None) => (false, true),
                (false, _) => (hardware, !p.conflict_free || judged.conflicts == 0.0),
            };
            let verdict = match (matches, clean) {
                (true, true) => "ok",
                (false, _) => "MISS",
                (true, false) => "CONFLICT",
            };
            ok &= matches && clean;
            checked += 1;
            let _ = writeln!(out, "{line} {verdict} |");
        }
    }
    let _ = writeln!(
        out,
        "\n{}",
        if ok {
            format!("all {checked} measured predictions match")
        } else {
            "MISMATCH (see rows marked MISS / CONFLICT)".to_string()
        }
    );
    if unmeasured > 0 {
        let _ = writeln!(
            out,
            "{unmeasured} not measured: ncu does not count their instructions as shared loads/stores"
        );
    }
    Ok((out, ok))
}

/// The profiled launches of an `ncu --csv` log, in launch order: (block size, metrics).
pub fn parse_ncu_csv(text: &str) -> std::result::Result<Vec<(String, Metrics)>, String> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("\"ID\""));
    let header = split_csv(lines.next().ok_or("no ncu CSV header (\"ID\",...) found")?);
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or(format!("no column {name:?}"))
    };
    let (id, kernel, block, metric, value) = (
        col("ID")?,
        col("Kernel Name")?,
        col("Block Size")?,
        col("Metric Name")?,
        col("Metric Value")?,
    );
    let mut by_id: BTreeMap<u64, (String, Metrics)> = BTreeMap::new();
    for line in lines {
        let f = split_csv(line);
        if f.len() < header.len() || f[kernel].is_empty() {
            continue;
        }
        let n: u64 = f[id].parse().map_err(|_| format!("bad ID {:?}", f[id]))?;
        let v: f64 = f[value]
            .replace(',', "")
            .parse()
            .map_err(|_| format!("bad value {:?}", f[value]))?;
        let e = by_id
            .entry(n)
            .or_insert_with(|| (f[block].clone(), Metrics::new()));
        e.1.insert(f[metric].clone(), v);
    }
    Ok(by_id.into_values().collect())
}

/// One CSV line with double-quoted fields.
pub fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_keep_quoted_commas_and_escaped_quotes() {
        assert_eq!(split_csv(r#""a","b,c","d""e""#), ["a", "b,c", "d\"e"]);
    }

    #[test]
    fn ncu_csv_groups_metrics_by_launch_in_id_order() {
        let text = "==PROF== noise\n\
            \"ID\",\"Kernel Name\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n\
            \"1\",\"k\",\"(256, 1, 1)\",\"m\",\"1,024\"\n\
            \"0\",\"k\",\"(128, 1, 1)\",\"m\",\"7\"\n\
            \"0\",\"k\",\"(128, 1, 1)\",\"n\",\"8\"\n";
        let l = parse_ncu_csv(text).unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].0, "(128, 1, 1)");
        assert_eq!(l[0].1["n"], 8.0);
        assert_eq!(l[1].1["m"], 1024.0);
        assert!(parse_ncu_csv("no header").is_err());
    }

    /// The SASS-patched (wavefronts, instructions) of one prediction.
    type SassCounts<'a> = &'a dyn Fn(&Predicted) -> [f64; 2];

    /// An ncu CSV of one `run` of `f`: per profiled launch, per direction, `metrics(prediction)` as the hardware's
    /// (wavefronts, instructions, conflicts), and with `sass` the SASS-patched (wavefronts, instructions).
    fn synthetic_csv_with(
        f: &dyn DynFamily,
        metrics: impl Fn(&Predicted) -> [f64; 3],
        sass: Option<SassCounts>,
    ) -> String {
        let size = f.size_of(f.profile_side());
        let mut text = String::from(
            "\"ID\",\"Kernel Name\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n",
        );
        for (n, (i, p)) in profiled(f).iter().enumerate() {
            let (x, y, z) = f.launch_block(*i, size).expect("profiled specs launch");
            for (op, pred) in [("ld", p.load), ("st", p.store)] {
                let Some(pred) = pred else { continue };
                let [wf, inst, conflicts] = metrics(&pred);
                let mut rows = vec![
                    (
                        format!("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"),
                        wf,
                    ),
                    (format!("smsp__inst_executed_op_shared_{op}.sum"), inst),
                    (
                        format!("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"),
                        conflicts,
                    ),
                ];
                if let Some(sass) = sass {
                    let [swf, sinst] = sass(&pred);
                    rows.push((
                        format!("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"),
                        swf,
                    ));
                    rows.push((
                        format!("smsp__sass_inst_executed_op_shared_{op}.sum"),
                        sinst,
                    ));
                }
                for (name, v) in rows {
                    let _ = writeln!(
                        text,
                        "\"{n}\",\"{}\",\"({x}, {y}, {z})\",\"{name}\",\"{v}\"",
                        p.entry
                    );
                }
            }
        }
        text
    }

    fn synthetic_csv(f: &dyn DynFamily, metrics: impl Fn(&Predicted) -> [f64; 3]) -> String {
        synthetic_csv_with(f, metrics, None)
    }

    fn compare_one(f: &dyn DynFamily, csv: String) -> Result<(String, bool)> {
        compare(f, &[("k.csv".into(), csv)])
    }

    #[test]
    fn stmatrix_stores_are_reported_as_not_measured_rather_than_missed() {
        let hopper = gpu_kernels::registry::find("hopper").unwrap();
        let stores: Vec<Predicted> = profiled(hopper)
            .iter()
            .filter_map(|(_, p)| p.store)
            .collect();
        assert!(!stores.is_empty() && stores.iter().all(|s| s.uncounted.is_some()));
        // What ncu reports: the stmatrix wavefronts counted, its instructions not (wf/instr would be inf); the
        // epilogue's 16-byte row reads (ld.shared.v4) counted as the model says.
        let csv = synthetic_csv(hopper, |p| match p.uncounted {
            Some(_) => [p.wavefronts as f64 + 64.0, 0.0, 0.0],
            None => [p.wavefronts as f64, p.instructions as f64, 0.0],
        });
        let (text, ok) = compare_one(hopper, csv).unwrap();
        assert!(ok, "{text}");
        assert!(!text.contains("MISS"), "{text}");
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("| store |")).collect();
        assert_eq!(rows.len(), stores.len(), "{text}");
        assert!(
            rows.iter()
                .all(|r| r.ends_with("not measured (stmatrix: not in op_shared_st) |")),
            "{text}"
        );
        // The read back is a load (LDS128), judged against ncu's load counters.
        let loads: Vec<&str> = text.lines().filter(|l| l.contains("| load |")).collect();
        assert_eq!(loads.len(), stores.len(), "{text}");
        assert!(loads.iter().all(|r| r.ends_with("ok |")), "{text}");
    }

    #[test]
    fn counted_accesses_are_judged_and_a_zero_instruction_count_is_an_error() {
        let t = gpu_kernels::registry::find("transpose").unwrap();
        let exact = |p: &Predicted| [p.wavefronts as f64, p.instructions as f64, 0.0];
        let (text, ok) = compare_one(t, synthetic_csv(t, exact)).unwrap();
        assert!(ok && !text.contains("not measured"), "{text}");
        // One wavefront more per instruction: a miss.
        let off = |p: &Predicted| {
            [
                (p.wavefronts + p.instructions) as f64,
                p.instructions as f64,
                0.0,
            ]
        };
        let (text, ok) = compare_one(t, synthetic_csv(t, off)).unwrap();
        assert!(!ok && text.contains("MISS"), "{text}");
        // No instructions counted for an access ncu counts: an error naming the counter, not `inf`.
        let none = |p: &Predicted| [p.wavefronts as f64, 0.0, 0.0];
        let e = compare_one(t, synthetic_csv(t, none))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("k.csv: smem-")
                && e.contains("smsp__inst_executed_op_shared_")
                && e.contains("= 0"),
            "{e}"
        );
        assert!(!e.contains("inf"), "{e}");
    }

    #[test]
    fn the_shipped_kernel_is_judged_on_the_per_instruction_counts() {
        // A shipped kernel that also moves global data: the hardware counts extra wavefronts (and "conflicts")
        // while its shared accesses wait behind that traffic; the SASS-patched counts see each instruction's own
        // addresses. Judged on those, the prediction holds; one wavefront more per instruction there is a miss.
        let contended = |p: &Predicted| {
            let i = p.instructions as f64;
            [p.wavefronts as f64 + 0.2 * i, i, 0.2 * i]
        };
        let exact = |p: &Predicted| [p.wavefronts as f64, p.instructions as f64];
        let off = |p: &Predicted| {
            [
                (p.wavefronts + p.instructions) as f64,
                p.instructions as f64,
            ]
        };
        for name in ["stencil", "matmul-l2", "transpose", "hopper"] {
            let f = gpu_kernels::registry::find(name).unwrap();
            let (text, ok) = compare_one(f, synthetic_csv(f, contended)).unwrap();
            assert!(!ok && text.contains("MISS"), "{name}: {text}");
            let (text, ok) =
                compare_one(f, synthetic_csv_with(f, contended, Some(&exact))).unwrap();
            assert!(ok && text.contains("per instruction"), "{name}: {text}");
            let (text, ok) = compare_one(f, synthetic_csv_with(f, contended, Some(&off))).unwrap();
            assert!(!ok && text.contains("MISS"), "{name}: {text}");
        }
    }

    #[test]
    fn a_smem_only_build_is_also_judged_on_the_hardware_counters() {
        let t = gpu_kernels::registry::find("transpose").unwrap();
        let exact_hw = |p: &Predicted| [p.wavefronts as f64, p.instructions as f64, 0.0];
        let off_hw = |p: &Predicted| {
            let i = p.instructions as f64;
            [p.wavefronts as f64 + i, i, i]
        };
        let exact = |p: &Predicted| [p.wavefronts as f64, p.instructions as f64];
        let shipped = synthetic_csv_with(t, off_hw, Some(&exact));
        let csvs = |last: String| {
            [
                ("k.csv".to_string(), shipped.clone()),
                ("s.csv".to_string(), shipped.clone()),
                ("o.csv".to_string(), last),
            ]
        };
        let (text, ok) = compare(t, &csvs(synthetic_csv_with(t, exact_hw, Some(&exact)))).unwrap();
        assert!(ok, "{text}");
        let (text, ok) = compare(t, &csvs(synthetic_csv_with(t, off_hw, Some(&exact)))).unwrap();
        assert!(!ok && text.contains("MISS"), "{text}");
    }

    #[test]
    fn a_csv_in_another_launch_order_is_refused() {
        let s = gpu_kernels::registry::find("stencil").unwrap();
        let exact = |p: &Predicted| [p.wavefronts as f64, p.instructions as f64, 0.0];
        let csv = synthetic_csv(s, exact).replacen("(256, 1, 1)", "(128, 1, 1)", 1);
        let e = compare_one(s, csv).unwrap_err().to_string();
        assert!(
            e.contains("launch order mismatch") && e.contains("(128, 1, 1)"),
            "{e}"
        );
    }

    #[test]
    fn families_without_a_smem_only_build_have_only_the_shipped_one() {
        assert_eq!(
            builds(gpu_kernels::registry::find("transpose").unwrap()),
            Build::ALL
        );
        for name in ["stencil", "matmul-l2", "hopper", "gemm"] {
            let f = gpu_kernels::registry::find(name).unwrap();
            assert_eq!(builds(f), [Build::Shipped], "{name}");
            let e = check_build(f, Build::OneBlock).unwrap_err().to_string();
            assert!(e.contains("no one-block build (it has: shipped)"), "{e}");
            // Two CSVs for a family with one build are refused.
            let e = compare(
                f,
                &[("a".into(), String::new()), ("b".into(), String::new())],
            )
            .unwrap_err()
            .to_string();
            assert!(e.contains("expected 1 to 1 ncu CSVs"), "{e}");
        }
    }

    #[test]
    fn entries_name_the_profiled_kernels() {
        let f = gpu_kernels::registry::find("transpose").unwrap();
        let e = entries(f);
        assert!(
            e.starts_with("^(") && e.ends_with(")$") && e.len() > 4,
            "{e}"
        );
    }
}
