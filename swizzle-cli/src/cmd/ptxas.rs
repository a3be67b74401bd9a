//! `swz ptxas FAMILY`: compile every spec of a family as shipped with `ptxas -v` through NVRTC (no GPU needed) and
//! print its registers, shared memory and spills; exit 1 if any uses local memory. `--cubins DIR` keeps each
//! CUBIN for `cuobjdump -sass` (the SASS of two builds compared with addresses stripped). For `gemm` the list is
//! every variant the tuning tools know (specs, baselines, experiments x B layout x input x output type).

use crate::cmd::bench::family;
use crate::output::Verdict;
use gpu_kernels::runtime::Compiled;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel family (every family of gpu-kernels' registry).
    #[arg(value_name = "FAMILY")]
    family: String,
    /// Only variants whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Write each variant's CUBIN here as <name>.cubin.
    #[arg(long, value_name = "DIR")]
    cubins: Option<PathBuf>,
    /// NVRTC target for families without their own (sm_90a for the Hopper GEMM).
    #[arg(long, default_value = "sm_90")]
    arch: String,
}

/// ptxas' resource lines, and whether they report local memory (a stack frame or spills).
fn usage(log: &str) -> (String, bool) {
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| {
            l.contains("Used") || l.contains("stack frame") || l.contains("C7") || l.contains("arn")
        })
        .map(str::trim)
        .collect();
    let spills = log.lines().any(|l| {
        l.contains("bytes stack frame")
            && !(l.contains(" 0 bytes stack frame") && l.contains(" 0 bytes spill stores"))
    });
    (lines.join(" | "), spills)
}

/// A file name from a spec's name: letters, digits, `-`, `_`, `.` kept, anything else `_`.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn run(args: Args) -> Result<Verdict, String> {
    let fam = family(&args.family)?;
    // An existing --cubins that is not a folder is refused now; the folder is created only once every variant
    // compiled, so a refused run (no NVRTC, a compile error) leaves nothing behind.
    if let Some(dir) = &args.cubins {
        if dir.exists() && !dir.is_dir() {
            return Err(format!("--cubins {}: not a folder", dir.display()));
        }
    }
    let keep = |name: &str| args.filter.as_deref().is_none_or(|f| name.contains(f));
    // (name, compiled) per variant, in order.
    let compiled: Vec<(String, Compiled)> = if fam.name() == "gemm" {
        use gpu_bench::gemm::tune;
        let variants = tune::variants(args.filter.as_deref());
        let compiled = tune::ptxas(&variants).map_err(|e| e.to_string())?;
        variants.iter().map(tune::file_name).zip(compiled).collect()
    } else {
        let mut v = Vec::new();
        for (i, info) in fam.spec_infos().iter().enumerate() {
            let name = format!("{}-{}", info.name, info.elem);
            if keep(&name) {
                let c = fam
                    .compile(i, &args.arch)
                    .map_err(|e| format!("{name}: {e}"))?;
                v.push((name, c));
            }
        }
        v
    };
    if compiled.is_empty() {
        return Err(format!(
            "no {} variant's name contains {:?}",
            fam.name(),
            args.filter.as_deref().unwrap_or("")
        ));
    }
    if let Some(dir) = &args.cubins {
        std::fs::create_dir_all(dir).map_err(|e| format!("--cubins {}: {e}", dir.display()))?;
    }
    let mut bad = Vec::new();
    for (name, c) in &compiled {
        let (usage, spills) = usage(&c.log);
        outln!("{}{name}: {usage}", if spills { "SPILL " } else { "" });
        if spills {
            bad.push(name.as_str());
        }
        if let Some(dir) = &args.cubins {
            let path = dir.join(format!("{}.cubin", file_name(name)));
            crate::output::write_bytes("--cubins", &path, &c.cubin)?;
        }
    }
    Ok(if bad.is_empty() {
        Verdict::Clean
    } else {
        Verdict::Conflicts(format!(
            "{} variant(s) use local memory: {}",
            bad.len(),
            bad.join(", ")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_flags_spills_only() {
        let clean = "ptxas info    : Used 168 registers, 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads";
        assert!(!usage(clean).1);
        let spill = "ptxas info    : Used 255 registers, 16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads";
        assert!(usage(spill).1);
        assert_eq!(file_name("Sw<3,3,3> f16"), "Sw_3_3_3__f16");
    }
}
