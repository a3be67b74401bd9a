//! `swz verify FAMILY`: every spec of a family on the GPU against its host reference (random inputs, poisoned
//! output, sizes that are not multiples of the tile, every output element compared). What
//! `scripts/device.sh sanitize` runs under compute-sanitizer (`--first-size`: every spec once, at the family's
//! first, ragged, size).
//!
//! Every kernel is compiled first, on every core (kept in the CUBIN cache for the next run), then each family's
//! checks run with their host references on every core; progress goes to stderr ([`gpu_bench::progress`]),
//! the results to stdout. [`compile_all`] and [`verify_family`] are also the report's.

use crate::cmd::bench::family;
use crate::memory;
use crate::output::Verdict;
use gpu_bench::progress::{seconds, Progress};
use gpu_kernels::frame::verify::Verified;
use gpu_kernels::frame::DynFamily;
use gpu_kernels::Gpu;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel family (every family of gpu-kernels' registry), or `all`.
    #[arg(value_name = "FAMILY")]
    family: String,
    /// Only the family's first verification size (one launch per spec).
    #[arg(long)]
    first_size: bool,
    /// Print each family's name, spec count and verification sizes, and exit; needs no GPU.
    #[arg(long)]
    list: bool,
}

pub fn run(args: Args) -> Result<Verdict, String> {
    let fams = if args.family == "all" {
        gpu_kernels::registry::FAMILIES.to_vec()
    } else {
        vec![family(&args.family)?]
    };
    if args.list {
        for fam in &fams {
            let sizes: Vec<String> = fam.verify_sizes().iter().map(|s| s.to_string()).collect();
            outln!(
                "{}: {} specs at {}",
                fam.name(),
                fam.spec_infos().len(),
                sizes.join(", ")
            );
        }
        return Ok(Verdict::Clean);
    }
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    outln!("device: {}", gpu.props());
    let start = Instant::now();
    compile_all(&gpu, &fams)?;
    memory::phase_end("compile");
    let mut failures = 0;
    if args.first_size {
        let p = Progress::new(fams.len() as u64, "verify --first-size");
        for fam in fams {
            p.step(fam.name());
            let (text, ok) =
                gpu_bench::ncu::verify_first_size(&gpu, fam).map_err(|e| e.to_string())?;
            out!("{text}");
            failures += usize::from(!ok);
        }
        p.finish_with(&format!("{failures} families failed"));
    } else {
        for fam in fams {
            let v = verify_family(&gpu, fam)?;
            memory::phase_end(&format!("verify {}", fam.name()));
            for f in &v.failures {
                outln!("FAILED {f}");
            }
            outln!(
                "{}: {} specs x {} sizes, {} failed",
                fam.name(),
                fam.spec_infos().len(),
                fam.verify_sizes().len(),
                v.failures.len()
            );
            failures += v.failures.len();
        }
    }
    eprintln!(
        "swz verify: {} in all{}",
        seconds(start.elapsed().as_secs_f64()),
        peak_memory()
    );
    Ok(if failures == 0 {
        Verdict::Clean
    } else {
        Verdict::Conflicts(format!("{failures} verification(s) failed"))
    })
}

/// Compile every spec of `fams` on every core before the first launch, with a progress bar (or line) on stderr
/// that ends saying how many came from the CUBIN cache.
pub fn compile_all(gpu: &Gpu, fams: &[&dyn DynFamily]) -> Result<(), String> {
    let arch = gpu.props().arch();
    let total: usize = fams.iter().map(|f| f.compile_jobs(&arch).len()).sum();
    let p = Progress::new(total as u64, "compile");
    let (loaded, compiled, from_disk) =
        gpu_kernels::registry::precompile(gpu, fams, Some(&p)).map_err(|e| e.to_string())?;
    let cache = match gpu_kernels::runtime::cache::disk_dir() {
        Some(d) => format!("CUBIN cache {}", d.display()),
        None => "no CUBIN cache".to_string(),
    };
    p.finish_with(&format!(
        "{loaded} kernels loaded: {compiled} compiled by NVRTC on {} threads, {from_disk} from the {cache}",
        gpu_kernels::frame::host_threads()
    ));
    Ok(())
}

/// Verify every spec of `fam` at every size ([`DynFamily::verify_with`]) with a progress bar (or line) on
/// stderr that ends with where the time went.
pub fn verify_family(gpu: &Gpu, fam: &dyn DynFamily) -> Result<Verified, String> {
    let checks = fam.spec_infos().len() * fam.verify_sizes().len();
    let p = Progress::new(checks as u64, &format!("verify {}", fam.name()));
    let v = fam.verify_with(gpu, Some(&p)).map_err(|e| e.to_string())?;
    p.finish_with(&format!(
        "{} checks, {} wrong; {} host inputs and references {} of CPU on {} threads, GPU {}, compare {}",
        v.checks,
        v.failures.len(),
        v.references,
        seconds(v.times.host_s),
        v.threads,
        seconds(v.times.gpu_s),
        seconds(v.times.compare_s)
    ));
    Ok(v)
}

/// `, peak memory 1.23 GB` (the process's peak resident memory so far), or nothing where the system does not
/// say.
pub fn peak_memory() -> String {
    memory::usage().map_or_else(String::new, |u| {
        format!(", peak memory {}", memory::gb(u.peak))
    })
}
