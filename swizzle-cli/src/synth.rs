//! `swz synth --tile 64x64 --elem f16 --pattern row16 --pattern ldmatrix.x4`
//!
//! Prints the XOR swizzle with the fewest bits that makes every pattern conflict-free (on bytes and on element
//! offsets), a two-layer composition when no single swizzle works, or the best achievable wavefronts and a padding
//! suggestion when none does; then the evidence, wavefronts per pattern before (unswizzled) and after. The search
//! is `swizzle_core::synth::synthesize`.
use crate::check::TileArgs;
use swizzle_core::synth::synthesize;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tile: TileArgs,
}

pub fn run(args: Args) -> Result<(), String> {
    let (smem, patterns) = args.tile.parse()?;
    out!("{}", synthesize(&smem, &patterns));
    Ok(())
}
