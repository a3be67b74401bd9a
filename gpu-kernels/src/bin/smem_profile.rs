//! Predicted vs measured shared-memory wavefronts of every shared-memory spec of a kernel family (any family of
//! gpu-kernels' registry: the bank model on the family's accesses as data, against Nsight Compute).
//!
//! ```text
//! smem_profile families                    the registered families, one per line
//! smem_profile entries FAMILY               the ncu --kernel-name regex of the family's profiled kernels
//! smem_profile verify FAMILY                verify every spec of the family at its first (ragged) verification
//!                                           size: what compute-sanitizer runs over
//! smem_profile run FAMILY [SIZE]            launch every spec with shared-memory accesses once and check it
//!                                           (default size 2048: full tiles only, so every block issues exactly
//!                                           the modelled instructions)
//! smem_profile run-smem-only FAMILY [SIZE]  the same launches built with the family's smem-only options
//!                                           (transpose: -DSMEM_ONLY=1, the very same smem instructions with no
//!                                           global loads or stores beside them)
//! smem_profile run-smem-only-1blk FAMILY [SIZE]
//!                                           smem-only again, each block launched with all the shared memory an
//!                                           SM has, so one block runs per SM
//! smem_profile compare FAMILY KERNEL.csv [SMEM_ONLY.csv [SMEM_ONLY_1BLK.csv]]
//!                                           read Nsight Compute's CSV of those runs and print, per spec and
//!                                           direction, the bank model's wavefronts per instruction next to ncu's;
//!                                           the last CSV given is the one judged
//! ```
//! On the device (see `gpu-kernels/device.sh ncu` for the exact command):
//! ```text
//! ncu --clock-control none --kernel-name "regex:$(smem_profile entries transpose)" --csv --log-file kernel.csv \
//!     --metrics <6 metrics> smem_profile run transpose
//! smem_profile compare transpose kernel.csv ...
//! ```
//! `compare` exits 1 if a prediction misses ncu's count in the last CSV given, or if an access that must be
//! conflict-free shows a bank conflict there.

use gpu_kernels::frame::profile::{Predicted, SpecPrediction};
use gpu_kernels::frame::{self, DynFamily};
use gpu_kernels::Gpu;
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match (args.first().map(String::as_str), args.get(1)) {
        (Some("families"), None) => {
            for f in frame::FAMILIES {
                println!("{}", f.name());
            }
            Ok(true)
        }
        (Some(cmd), Some(fam)) => match frame::find(fam) {
            None => Err(format!(
                "unknown family {fam:?}: expected one of {}",
                frame::registry::names()
            )),
            Some(f) => {
                let size = args.get(2).map(String::as_str).unwrap_or("2048");
                match cmd {
                    "entries" => entries(f),
                    "verify" => verify(f),
                    "run" => run(f, size, Mode::Kernel),
                    "run-smem-only" => run(f, size, Mode::SmemOnly),
                    "run-smem-only-1blk" => run(f, size, Mode::SmemOnlyOneBlock),
                    "compare" if (3..=5).contains(&args.len()) => compare(f, &args[2..]),
                    _ => Err(usage()),
                }
            }
        },
        _ => Err(usage()),
    };
    match result {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("smem_profile: {e}");
            std::process::exit(2);
        }
    }
}

fn usage() -> String {
    "usage: smem_profile families | smem_profile entries|verify|run|run-smem-only|run-smem-only-1blk FAMILY [SIZE] | \
     smem_profile compare FAMILY KERNEL.csv [SMEM_ONLY.csv [SMEM_ONLY_1BLK.csv]]"
        .to_string()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Kernel,
    SmemOnly,
    SmemOnlyOneBlock,
}

/// The specs that are profiled: those with a shared-load or shared-store prediction, with their index in the
/// family's spec list.
fn profiled(f: &dyn DynFamily) -> Vec<(usize, SpecPrediction)> {
    f.predictions()
        .into_iter()
        .enumerate()
        .filter(|(_, p)| p.load.is_some() || p.store.is_some())
        .collect()
}

fn verify(f: &dyn DynFamily) -> Result<bool, String> {
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    let size = *f
        .verify_sizes()
        .first()
        .ok_or("the family has no verification sizes")?;
    let mut ok = true;
    for (i, info) in f.spec_infos().iter().enumerate() {
        if let Err(e) = f.verify_one(&gpu, i, size) {
            println!("FAILED {} {} on {size}: {e}", info.name, info.elem);
            ok = false;
        }
    }
    println!(
        "{}: {} specs verified on {size}",
        f.name(),
        f.spec_infos().len()
    );
    Ok(ok)
}

fn entries(f: &dyn DynFamily) -> Result<bool, String> {
    let mut names: Vec<&str> = profiled(f).iter().map(|(_, p)| p.entry).collect();
    names.sort_unstable();
    names.dedup();
    println!("^({})$", names.join("|"));
    Ok(true)
}

fn run(f: &dyn DynFamily, size: &str, mode: Mode) -> Result<bool, String> {
    let n: u32 = size
        .parse()
        .map_err(|_| format!("bad size {size:?}, expected N (the family's size of side N)"))?;
    let size = f.size_of(n);
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    println!("{}", gpu.props());
    let one_block = gpu.props().smem_per_block_optin as u32;
    let infos = f.spec_infos();
    for (i, p) in profiled(f) {
        let done = match mode {
            Mode::Kernel => f.verify_one(&gpu, i, size),
            Mode::SmemOnly => f.launch_once(&gpu, i, size, true, None),
            Mode::SmemOnlyOneBlock => f.launch_once(&gpu, i, size, true, Some(one_block)),
        };
        done.map_err(|e| e.to_string())?;
        let what = match mode {
            Mode::Kernel => "checked",
            Mode::SmemOnly => "smem only",
            Mode::SmemOnlyOneBlock => "smem only, one block per SM",
        };
        println!("launch {i}: {} {} ({what})", p.name, infos[i].display);
    }
    Ok(true)
}

/// ncu metric values of one profiled launch, by metric name.
type Metrics = BTreeMap<String, f64>;

fn launches(f: &dyn DynFamily, path: &str) -> Result<Vec<Metrics>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let launches = parse_ncu_csv(&text)?;
    let specs = profiled(f);
    if launches.len() != specs.len() {
        return Err(format!(
            "{path}: {} profiled launches, expected {}",
            launches.len(),
            specs.len()
        ));
    }
    let infos = f.spec_infos();
    for ((i, p), (block, _)) in specs.iter().zip(&launches) {
        let want = infos[*i].block.trim_end_matches(')');
        if !block.replace(' ', "").starts_with(want) {
            return Err(format!(
                "{path}: launch order mismatch: {} has block {block}",
                p.name
            ));
        }
    }
    Ok(launches.into_iter().map(|(_, m)| m).collect())
}

/// One direction's numbers from one profiled launch.
struct Measured {
    per_instruction: f64,
    conflicts: f64,
}

fn measured(m: &Metrics, op: &str) -> Measured {
    let get = |name: String| m.get(&name).copied().unwrap_or(f64::NAN);
    let wf = get(format!(
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"
    ));
    let inst = get(format!("smsp__inst_executed_op_shared_{op}.sum"));
    let conflicts = get(format!(
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"
    ));
    Measured {
        per_instruction: wf / inst,
        conflicts,
    }
}

fn compare(f: &dyn DynFamily, csvs: &[String]) -> Result<bool, String> {
    let runs = csvs
        .iter()
        .map(|p| launches(f, p))
        .collect::<Result<Vec<_>, _>>()?;
    let labels = ["kernel", "smem only", "smem only, 1 block/SM"];
    println!("Predicted: swizzle-core's bank model on the {} family's smem accesses as data (wavefronts per", f.name());
    println!("warp instruction, loads and stores apart). Measured: ncu wavefronts / instructions executed, and ncu");
    println!("bank conflicts, for the shipped kernel, the smem-only build (identical smem instructions, no global");
    println!("traffic) and smem-only with one block per SM (no other block's smem traffic either). Judged: the");
    println!("last run ({}).\n", labels[runs.len() - 1]);
    let mut head = String::from("| spec | elem | direction | predicted wf/instr |");
    let mut rule = String::from("|---|---|---|--:|");
    for l in &labels[..runs.len()] {
        head.push_str(&format!(" {l}: wf/instr | {l}: conflicts |"));
        rule.push_str("--:|--:|");
    }
    println!("{head} |\n{rule}---|");
    let infos = f.spec_infos();
    let mut ok = true;
    let mut checked = 0;
    for (n, (i, p)) in profiled(f).iter().enumerate() {
        let dirs: [(&str, &str, Option<Predicted>); 2] =
            [("ld", "load", p.load), ("st", "store", p.store)];
        for (op, dir, pred) in dirs {
            let Some(pred) = pred else { continue };
            let predicted = pred.per_instruction();
            let cells: Vec<Measured> = runs.iter().map(|r| measured(&r[n], op)).collect();
            let judged = cells.last().expect("at least one CSV");
            let matches = (predicted - judged.per_instruction).abs() < 0.005;
            let clean = !p.conflict_free || judged.conflicts == 0.0;
            let verdict = match (matches, clean) {
                (true, true) => "ok",
                (false, _) => "MISS",
                (true, false) => "CONFLICT",
            };
            ok &= matches && clean;
            checked += 1;
            let mut line = format!(
                "| {} | {} | {dir} | {predicted:.2} |",
                p.name, infos[*i].elem
            );
            for c in &cells {
                line.push_str(&format!(" {:.3} | {:.0} |", c.per_instruction, c.conflicts));
            }
            println!("{line} {verdict} |");
        }
    }
    println!(
        "\n{}",
        if ok {
            format!("all {checked} predictions match")
        } else {
            "MISMATCH (see rows marked MISS / CONFLICT)".to_string()
        }
    );
    Ok(ok)
}

/// The profiled launches of an `ncu --csv` log, in launch order: (block size, metrics).
fn parse_ncu_csv(text: &str) -> Result<Vec<(String, Metrics)>, String> {
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
fn split_csv(line: &str) -> Vec<String> {
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
