//! `swz verify FAMILY`: every spec of a family on the GPU against its host reference (random inputs, poisoned
//! output, sizes that are not multiples of the tile). What `scripts/device.sh sanitize` runs under
//! compute-sanitizer (`--first-size`: every spec once, at the family's first, ragged, size).

use crate::bench::family;
use crate::Verdict;
use gpu_kernels::Gpu;

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
    let mut failures = 0;
    for fam in fams {
        if args.first_size {
            let (text, ok) =
                gpu_bench::ncu::verify_first_size(&gpu, fam).map_err(|e| e.to_string())?;
            out!("{text}");
            failures += usize::from(!ok);
        } else {
            let failed = fam.verify_all(&gpu).map_err(|e| e.to_string())?;
            for f in &failed {
                outln!("FAILED {f}");
            }
            outln!(
                "{}: {} specs x {} sizes, {} failed",
                fam.name(),
                fam.spec_infos().len(),
                fam.verify_sizes().len(),
                failed.len()
            );
            failures += failed.len();
        }
    }
    Ok(if failures == 0 {
        Verdict::Clean
    } else {
        Verdict::Conflicts(format!("{failures} verification(s) failed"))
    })
}
