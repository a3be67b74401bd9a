//! `swz profile FAMILY ACTION`: the bank model's predicted shared-memory wavefronts against Nsight Compute.
//! `entries` and `metrics` print what to hand `ncu --kernel-name` and `--metrics`; `run` launches what ncu
//! profiles; `compare` reads ncu's CSVs and prints the prediction beside each count (exit 1 on a miss).
//! The work is gpu-bench's (`ncu` for every family; the tensor-core fragment problems have their own
//! comparison, `fragments`, because ncu's per-instruction counters do not see ldmatrix/stmatrix).

use crate::cmd::bench::family;
use crate::output::Verdict;
use gpu_bench::ncu::{self, Build};
use gpu_bench::progress::Progress;
use gpu_kernels::frame::DynFamily;
use gpu_kernels::Gpu;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Kernel family (every family of gpu-kernels' registry).
    #[arg(value_name = "FAMILY")]
    family: String,
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Print the `ncu --kernel-name` regex of the family's profiled kernels (no GPU needed).
    Entries,
    /// Print the comma-separated metrics `compare` reads (no GPU needed): the hardware counters and the
    /// per-instruction (SASS-patched) ones; with --sass, only the per-instruction ones.
    Metrics {
        #[arg(long)]
        sass: bool,
    },
    /// Print the builds `run` can launch for this family, one line (no GPU needed): `shipped`, and `smem-only
    /// one-block` for a family with a shared-memory-only build.
    Builds,
    /// Launch every profiled spec once (each shipped launch checked against the host reference).
    Run {
        /// shipped, smem-only (the same smem instructions, no global traffic), or one-block (smem-only with one
        /// block per SM); the last two only for a family that has them (see `builds`).
        #[arg(long, default_value = "shipped", value_parser = ["shipped", "smem-only", "one-block"])]
        build: String,
        /// The family's problem of side N (default: the family's profile side, 2048, or 512 for the GEMMs:
        /// full tiles only, so every block issues the modelled instructions).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=(1 << 30)))]
        size: Option<u32>,
    },
    /// Read ncu's CSVs of `run` (shipped, then smem-only, then one-block; the last one given is judged) and print
    /// predicted beside measured; exit 1 on a miss or an unexpected bank conflict.
    Compare {
        #[arg(required = true, num_args = 1..=3, value_name = "CSV")]
        csv: Vec<PathBuf>,
    },
}

/// The family whose ncu comparison is its own (per problem, ldmatrix and stmatrix counted by other metrics).
const FRAGMENTS: &str = "fragments";

pub fn run(args: Args) -> Result<Verdict, String> {
    let fam = family(&args.family)?;
    let own = fam.name() == FRAGMENTS;
    match args.action {
        Action::Entries => {
            if own {
                outln!("^{FRAGMENTS}_");
            } else {
                outln!("{}", ncu::entries(fam));
            }
        }
        Action::Builds => {
            let builds: &[Build] = if own {
                &[Build::Shipped]
            } else {
                ncu::builds(fam)
            };
            let names: Vec<&str> = builds.iter().map(|b| b.name()).collect();
            outln!("{}", names.join(" "));
        }
        Action::Metrics { sass } => {
            let m = match (own, sass) {
                (true, _) => gpu_bench::fragments::METRICS,
                (false, false) => ncu::METRICS,
                (false, true) => ncu::SASS_METRICS,
            };
            outln!("{}", m.replace(char::is_whitespace, ""));
        }
        Action::Run { build, size } => {
            let build = Build::ALL
                .into_iter()
                .find(|b| b.name() == build)
                .unwrap_or(Build::Shipped);
            // Checked before the GPU is opened: a build the family lacks is a usage mistake.
            if own && build != Build::Shipped {
                return Err(format!(
                    "{FRAGMENTS} has no {} build (it has: shipped)",
                    build.name()
                ));
            }
            ncu::check_build(fam, build).map_err(|e| e.to_string())?;
            let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
            outln!("{}", gpu.props());
            // Each launch is checked against its host reference, and under ncu each takes a while: progress on
            // stderr, one step per launch.
            let launches = if own {
                0
            } else {
                ncu::profiled(fam).len() as u64
            };
            let progress = Progress::new(launches, &format!("profile {} run", fam.name()));
            let text = if own {
                gpu_bench::fragments::run(&gpu)
            } else {
                let n = size.unwrap_or(fam.profile_side());
                ncu::run_with(&gpu, fam, n, build, Some(&progress))
            }
            .map_err(|e| e.to_string())?;
            progress.finish();
            out!("{text}");
        }
        Action::Compare { csv } => return compare(fam, own, &csv),
    }
    Ok(Verdict::Clean)
}

fn compare(fam: &dyn DynFamily, own: bool, paths: &[PathBuf]) -> Result<Verdict, String> {
    let csvs = paths
        .iter()
        .map(|p| crate::output::read_text(p).map(|t| (p.display().to_string(), t)))
        .collect::<Result<Vec<_>, _>>()?;
    let (text, ok) = if own {
        gpu_bench::fragments::compare(&csvs)
    } else {
        ncu::compare(fam, &csvs)
    }
    .map_err(|e| e.to_string())?;
    out!("{text}");
    Ok(if ok {
        Verdict::Clean
    } else {
        Verdict::Conflicts(format!(
            "{}: a prediction differs from Nsight Compute's count",
            fam.name()
        ))
    })
}
