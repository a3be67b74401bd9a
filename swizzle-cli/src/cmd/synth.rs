//! `swz synth --tile 64x64 --elem f16 --pattern row16 --pattern ldmatrix.x4`
//!
//! Prints the XOR swizzle with the fewest bits that makes every pattern conflict-free (on bytes and on element
//! offsets), a two-layer composition when no single swizzle works, or the best achievable wavefronts and a padding
//! suggestion when none does; then the evidence, wavefronts per pattern before (unswizzled) and after. The search
//! is `swizzle_core::synth::synthesize`.
//!
//! Exit code: 0 when a conflict-free layout (unswizzled, one or two swizzle layers) exists, 1 when none does (the
//! best candidate and a padding suggestion are still printed), 2 on bad input. When stderr is a terminal, or
//! `--progress` asks, a long search prints a line every two seconds (which pass: the conflict-free search, then
//! the search for the cheapest; how many candidates of how many); otherwise stderr carries nothing but the
//! verdict's one line.
//!
//! Bound: the search is exhaustive over at most ~160 000 candidates for the largest tiles, each checked until
//! its first conflicting instruction; when nothing is conflict-free the cheapest is looked for among the first
//! candidates only (`swizzle_core::synth::BEST_EFFORT_WORK` warp instructions), so any accepted tile (at most
//! 227 KiB) with every pattern answers in seconds.
use crate::cmd::check::TileArgs;
use crate::output::Verdict;
use std::time::{Duration, Instant};
use swizzle_core::synth::{synthesize_with_progress, Answer};

#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 a conflict-free layout exists (printed), 1 no XOR swizzle is conflict-free (the \
                  best one, in bytes and in element units, and a padding suggestion are printed), 2 bad input."
)]
pub struct Args {
    #[command(flatten)]
    tile: TileArgs,
    /// Report the search's progress on stderr every two seconds (the default when stderr is a terminal).
    #[arg(long)]
    progress: bool,
}

pub fn run(args: Args) -> Result<Verdict, String> {
    let (smem, patterns) = args.tile.parse()?;
    // A person watching (stderr a terminal) sees the search move; a script sees only the verdict unless it asks.
    let report = args.progress || std::io::IsTerminal::is_terminal(&std::io::stderr());
    let start = Instant::now();
    let mut last = start;
    let mut phase = (0usize, 0usize); // (phase number, its candidate count)
    let mut progress = |k: usize, total: usize| {
        // Each phase counts its candidates from 0: a restart of the count is a new phase.
        if k == 0 || total != phase.1 {
            phase = (phase.0 + 1, total);
        }
        if report && last.elapsed() >= Duration::from_secs(2) {
            last = Instant::now();
            errln!(
                "swz synth: pass {}: {k} of {total} candidates ({:.0} s)",
                phase.0,
                start.elapsed().as_secs_f64()
            );
        }
    };
    let s = synthesize_with_progress(&smem, &patterns, &mut progress);
    out!("{s}");
    Ok(match s.answer {
        Answer::Impossible { .. } => Verdict::Conflicts(format!(
            "no conflict-free XOR swizzle for {} (see the best candidate above)",
            smem.tile()
        )),
        _ => Verdict::Clean,
    })
}
