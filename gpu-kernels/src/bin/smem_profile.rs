//! Predicted vs measured shared-memory wavefronts of every shared-memory transpose.
//!
//! ```text
//! smem_profile run [ROWSxCOLS]            launch every spec of transpose::smem::SPECS once and check it
//!                                         (default 2048x2048: full tiles only, so every block issues exactly the
//!                                         modelled instructions)
//! smem_profile run-smem-only [ROWSxCOLS]  the same launches built with -DSMEM_ONLY=1: the very same smem
//!                                         instructions with no global loads or stores beside them
//! smem_profile run-smem-only-1blk [ROWSxCOLS]
//!                                         SMEM_ONLY again, each block launched with all the shared memory an SM
//!                                         has, so one block runs per SM: no other block's smem traffic beside it
//! smem_profile compare KERNEL.csv [SMEM_ONLY.csv [SMEM_ONLY_1BLK.csv]]
//!                                         read Nsight Compute's CSV of those runs and print, per spec and access,
//!                                         the bank model's wavefronts per instruction next to ncu's; the last
//!                                         CSV given is the one judged
//! ```
//! On the device (see `gpu-kernels/device.sh ncu` for the exact command):
//! ```text
//! ncu --clock-control none --kernel-name transposeSmem --csv --log-file kernel.csv --metrics <6 metrics> \
//!     smem_profile run
//! ncu ... --log-file smem_only.csv ... smem_profile run-smem-only
//! smem_profile compare kernel.csv smem_only.csv
//! ```
//! `compare` exits 1 if a prediction misses ncu's count in the last CSV given, or if a padded/swizzled spec
//! shows a bank conflict there.

use gpu_kernels::transpose::smem::{Access, Layout, SPECS};
use gpu_kernels::transpose::{Check, Transpose};
use gpu_kernels::{Elem, Gpu};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size = |i: usize| args.get(i).map(String::as_str).unwrap_or("2048x2048");
    let result = match args.first().map(String::as_str) {
        Some("run") => run(size(1), Mode::Kernel),
        Some("run-smem-only") => run(size(1), Mode::SmemOnly),
        Some("run-smem-only-1blk") => run(size(1), Mode::SmemOnlyOneBlock),
        Some("compare") if (2..=4).contains(&args.len()) => compare(&args[1..]),
        _ => Err(
            "usage: smem_profile run|run-smem-only|run-smem-only-1blk [ROWSxCOLS] | \
                  smem_profile compare KERNEL.csv [SMEM_ONLY.csv [SMEM_ONLY_1BLK.csv]]"
                .to_string(),
        ),
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Kernel,
    SmemOnly,
    SmemOnlyOneBlock,
}

fn run(size: &str, mode: Mode) -> Result<bool, String> {
    let (rows, cols) = size
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse::<u32>().ok()?, c.parse::<u32>().ok()?)))
        .ok_or_else(|| format!("bad size {size:?}, expected ROWSxCOLS"))?;
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    println!("{}", gpu.props());
    let mut c32 = Check::<f32>::new(&gpu, rows, cols).map_err(|e| e.to_string())?;
    let mut c16 = Check::<half::f16>::new(&gpu, rows, cols).map_err(|e| e.to_string())?;
    let one_block = gpu.props().smem_per_block_optin as u32;
    for (i, spec) in SPECS.iter().enumerate() {
        let t = Transpose::Smem(*spec);
        let smem = match mode {
            Mode::SmemOnlyOneBlock => Some(one_block),
            _ => None,
        };
        let extra: &[&str] = if mode == Mode::Kernel {
            &[]
        } else {
            &["-DSMEM_ONLY=1"]
        };
        let done = match (spec.elem, mode) {
            (Elem::F32, Mode::Kernel) => c32.run(&gpu, &t),
            (Elem::F16, Mode::Kernel) => c16.run(&gpu, &t),
            (Elem::F32, _) => c32.launch_only(&gpu, &t, extra, smem),
            (Elem::F16, _) => c16.launch_only(&gpu, &t, extra, smem),
            (e, _) => return Err(format!("no transpose checks for {e}")),
        };
        done.map_err(|e| e.to_string())?;
        let what = match mode {
            Mode::Kernel => "checked",
            Mode::SmemOnly => "smem only",
            Mode::SmemOnlyOneBlock => "smem only, one block per SM",
        };
        println!("launch {i}: {spec} ({what})");
    }
    Ok(true)
}

/// ncu metric values of one profiled launch, by metric name.
type Metrics = BTreeMap<String, f64>;

fn launches(path: &str) -> Result<Vec<Metrics>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let launches = parse_ncu_csv(&text)?;
    if launches.len() != SPECS.len() {
        return Err(format!(
            "{path}: {} transposeSmem launches, expected {}",
            launches.len(),
            SPECS.len()
        ));
    }
    for (spec, (block, _)) in SPECS.iter().zip(&launches) {
        let (bx, by) = spec.block();
        if !block.replace(' ', "").starts_with(&format!("({bx},{by}")) {
            return Err(format!(
                "{path}: launch order mismatch: {} has block {block}",
                spec.name
            ));
        }
    }
    Ok(launches.into_iter().map(|(_, m)| m).collect())
}

/// One access kind's numbers from one profiled launch.
struct Measured {
    per_instruction: f64,
    conflicts: f64,
}

fn measured(m: &Metrics, access: Access) -> Measured {
    let op = if access == Access::Read { "ld" } else { "st" };
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

fn compare(csvs: &[String]) -> Result<bool, String> {
    let runs = csvs
        .iter()
        .map(|p| launches(p))
        .collect::<Result<Vec<_>, _>>()?;
    let labels = ["kernel", "smem only", "smem only, 1 block/SM"];
    println!("Predicted: swizzle-core's bank model on the kernel's smem lane addresses (wavefronts per warp");
    println!("instruction). Measured: ncu wavefronts / instructions executed, and ncu bank conflicts, for the");
    println!("shipped kernel, the same kernel built with -DSMEM_ONLY=1 (identical smem instructions, no global");
    println!("traffic) and SMEM_ONLY with one block per SM (no other block's smem traffic either). Judged: the");
    println!("last run ({}).\n", labels[runs.len() - 1]);
    let mut head = String::from("| spec | elem | access | op | predicted wf/instr |");
    let mut rule = String::from("|---|---|---|---|--:|");
    for l in &labels[..runs.len()] {
        head.push_str(&format!(" {l}: wf/instr | {l}: conflicts |"));
        rule.push_str("--:|--:|");
    }
    println!("{head} |\n{rule}---|");
    let mut ok = true;
    for (n, spec) in SPECS.iter().enumerate() {
        for access in Access::BOTH {
            let predicted = spec.cost(access).per_instruction();
            let cells: Vec<Measured> = runs.iter().map(|r| measured(&r[n], access)).collect();
            let judged = cells.last().expect("at least one CSV");
            let matches = (predicted - judged.per_instruction).abs() < 0.005;
            let clean = spec.layout() == Layout::Unpadded || judged.conflicts == 0.0;
            let verdict = match (matches, clean) {
                (true, true) => "ok",
                (false, _) => "MISS",
                (true, false) => "CONFLICT",
            };
            ok &= matches && clean;
            let mut line = format!(
                "| {} | {} | {} | {} | {predicted:.2} |",
                spec.name,
                spec.elem,
                access.name(),
                spec.op(access).name()
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
            "all predictions match"
        } else {
            "MISMATCH (see rows marked MISS / CONFLICT)"
        }
    );
    Ok(ok)
}

/// The transposeSmem launches of an `ncu --csv` log, in launch order: (block size, metrics).
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
        if f.len() < header.len() || !f[kernel].contains("transposeSmem") {
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
