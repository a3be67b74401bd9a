//! The stencil bandwidth tables (until `swz bench stencil` exists on the kernel-family frame).
//!
//! ```text
//! stencil_bench [--n 27,28] [--k 1,2,4,8,16] [--types fp32,i32] [--iters 50] [--json FILE] [--only NAME,...]
//! ```
//! `--n` takes log2 sizes (27 = 2^27) or plain element counts; the defaults are the issue's (2^27 and 2^28,
//! k in {1, 2, 4, 8, 16}, fp32). Prints one markdown table per (n, k, type), then the summary; `--json` writes
//! the whole report (device, date, command, tables). Exit 2 on bad arguments or a missing GPU.

use gpu_kernels::bench::{BenchConfig, Report};
use gpu_kernels::stencil::bench::{summary, sweep, RADII, SIZES};
use gpu_kernels::stencil::{ValueType, SPECS};
use gpu_kernels::Gpu;

fn main() {
    if let Err(e) = run() {
        eprintln!("stencil_bench: {e}");
        std::process::exit(2);
    }
}

fn list<T>(v: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    v.split(',')
        .map(|x| parse(x.trim()).ok_or_else(|| format!("bad list item {x:?}")))
        .collect()
}

fn run() -> Result<(), String> {
    let mut sizes = SIZES.to_vec();
    let mut radii = RADII.to_vec();
    let mut types = vec![ValueType::F32];
    let mut cfg = BenchConfig {
        iters: 50,
        ..BenchConfig::default()
    };
    let mut json = None;
    let mut specs = SPECS.to_vec();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--n" => {
                sizes = list(&value()?, |x| {
                    x.parse::<usize>()
                        .ok()
                        .map(|v| if v < 40 { 1usize << v } else { v })
                })?
            }
            "--k" => radii = list(&value()?, |x| x.parse().ok())?,
            "--types" => {
                types = list(&value()?, |x| {
                    ValueType::ALL.into_iter().find(|t| t.name() == x)
                })?
            }
            "--iters" => {
                cfg.iters = value()?
                    .parse()
                    .map_err(|_| "--iters needs a number".to_string())?
            }
            "--json" => json = Some(value()?),
            "--only" => {
                let names = value()?;
                specs.retain(|s| names.split(',').any(|n| n == s.name));
                if specs.is_empty() {
                    return Err(format!("--only {names}: no such variant"));
                }
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    eprintln!("device: {}", gpu.props());
    let tables = sweep(&gpu, &sizes, &radii, &types, &specs, &cfg).map_err(|e| e.to_string())?;
    println!("device: {}\n", gpu.props());
    for t in &tables {
        println!("{}", t.markdown());
    }
    println!("summary (% of D2D; smem/shfl = time ratio at equal outputs per thread, > 1: register cache faster)\n");
    println!("{}", summary(&tables, &specs));
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    if let Some(path) = json {
        std::fs::write(&path, report.json()).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
