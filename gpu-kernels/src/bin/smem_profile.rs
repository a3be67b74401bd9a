//! Predicted vs measured shared-memory wavefronts of every shared-memory transpose.
//!
//! ```text
//! smem-profile run [ROWSxCOLS]      launch every spec of transpose::smem::SPECS once (default 2048x2048: full
//!                                   tiles only, so every block issues exactly the modelled instructions)
//! smem-profile compare NCU.csv      read Nsight Compute's CSV of that run and print, per spec and access, the
//!                                   bank model's wavefronts per instruction next to ncu's
//! ```
//! On the device:
//! ```text
//! ncu --clock-control none --kernel-name transposeSmem --csv --log-file ncu.csv \
//!     --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
//! l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
//! smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum  smem-profile run
//! smem-profile compare ncu.csv
//! ```
//! `compare` exits 1 if any prediction misses ncu, or if a padded/swizzled spec shows a bank conflict.

use gpu_kernels::transpose::smem::{Access, Layout, SmemSpec, SPECS};
use gpu_kernels::transpose::{Check, Transpose};
use gpu_kernels::{Elem, Gpu};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => run(args.get(1).map(String::as_str).unwrap_or("2048x2048")),
        Some("compare") if args.len() == 2 => compare(&args[1]),
        _ => Err("usage: smem-profile run [ROWSxCOLS] | smem-profile compare NCU.csv".to_string()),
    };
    match result {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("smem-profile: {e}");
            std::process::exit(2);
        }
    }
}

fn run(size: &str) -> Result<bool, String> {
    let (rows, cols) = size
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse::<u32>().ok()?, c.parse::<u32>().ok()?)))
        .ok_or_else(|| format!("bad size {size:?}, expected ROWSxCOLS"))?;
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    println!("{}", gpu.props());
    let mut c32 = Check::<f32>::new(&gpu, rows, cols).map_err(|e| e.to_string())?;
    let mut c16 = Check::<half::f16>::new(&gpu, rows, cols).map_err(|e| e.to_string())?;
    for (i, spec) in SPECS.iter().enumerate() {
        let t = Transpose::Smem(*spec);
        match spec.elem {
            Elem::F32 => c32.run(&gpu, &t),
            Elem::F16 => c16.run(&gpu, &t),
        }
        .map_err(|e| e.to_string())?;
        println!("launch {i}: {spec} (checked)");
    }
    Ok(true)
}

/// ncu metric values of one profiled launch, by metric name.
type Metrics = BTreeMap<String, f64>;

fn compare(path: &str) -> Result<bool, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let launches = parse_ncu_csv(&text)?;
    if launches.len() != SPECS.len() {
        return Err(format!(
            "{path}: {} transposeSmem launches, expected {}",
            launches.len(),
            SPECS.len()
        ));
    }
    println!(
        "| spec | elem | access | op | predicted wf/instr | measured wf/instr | predicted conflicts | measured conflicts | |"
    );
    println!("|---|---|---|---|--:|--:|--:|--:|---|");
    let mut ok = true;
    for (spec, (block, m)) in SPECS.iter().zip(&launches) {
        let (bx, by) = spec.block();
        if !block.replace(' ', "").starts_with(&format!("({bx},{by}")) {
            return Err(format!(
                "launch order mismatch: {} has block {block}",
                spec.name
            ));
        }
        for access in Access::BOTH {
            ok &= compare_one(spec, access, m);
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

fn compare_one(spec: &SmemSpec, access: Access, m: &Metrics) -> bool {
    let op = if access == Access::Read { "ld" } else { "st" };
    let get = |name: &str| m.get(name).copied().unwrap_or(f64::NAN);
    let wf = get(&format!(
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"
    ));
    let conflicts = get(&format!(
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"
    ));
    let inst = get(&format!("smsp__inst_executed_op_shared_{op}.sum"));
    let cost = spec.cost(access);
    let predicted = cost.per_instruction();
    let measured = wf / inst;
    // Conflicts per instruction, scaled to the instructions ncu counted (all blocks).
    let predicted_conflicts = cost.conflicts() as f64 / cost.instructions as f64 * inst;
    let matches = (predicted - measured).abs() < 0.01;
    let clean = spec.layout() == Layout::Unpadded || conflicts == 0.0;
    let verdict = match (matches, clean) {
        (true, true) => "ok",
        (false, _) => "MISS",
        (true, false) => "CONFLICT",
    };
    println!(
        "| {} | {} | {} | {} | {predicted:.2} | {measured:.2} | {predicted_conflicts:.0} | {conflicts:.0} | {verdict} |",
        spec.name,
        spec.elem,
        access.name(),
        spec.op(access).name(),
    );
    matches && clean
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
