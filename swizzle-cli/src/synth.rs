//! `swz synth --tile 64x64 --elem f16 --pattern row16 --pattern ldmatrix.x4`
//!
//! Prints the XOR swizzle with the fewest bits that makes every pattern conflict-free (on bytes and on element
//! offsets), a two-layer composition when no single swizzle works, or the best achievable wavefronts and a padding
//! suggestion when none does; then the evidence, wavefronts per pattern before (unswizzled) and after. The search
//! is `swizzle_core::synth::synthesize`.
//!
//! Exit code: 0 when a conflict-free layout (unswizzled, one or two swizzle layers) exists, 1 when none does (the
//! best candidate and a padding suggestion are still printed), 2 on bad input. A search running longer than two
//! seconds reports its progress on stderr.
use crate::check::TileArgs;
use crate::Verdict;
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
}

pub fn run(args: Args) -> Result<Verdict, String> {
    let (smem, patterns) = args.tile.parse()?;
    let start = Instant::now();
    let mut last = start;
    let mut progress = |k: usize, total: usize| {
        if k.is_multiple_of(64) && last.elapsed() >= Duration::from_secs(2) {
            last = Instant::now();
            eprintln!(
                "swz synth: {k} of {total} candidates checked ({:.0} s)",
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
