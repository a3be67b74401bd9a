//! `swz`: inspect swizzles and rasters, check bank conflicts, emit the CUDA header, run the kernels.
//!
//! This file is the command line and its dispatch. Each subcommand lives in its own module under `cmd/` with an
//! `Args` (clap) and a `run` returning `Result<(), String>` or `Result<Verdict, String>`; `output` turns that into
//! the exit status. Any error prints one line on stderr and exits with code 2 (clap's usage errors exit 2 as well).
//! `check`, `synth` and the other checking subcommands exit 1 when they checked and found a conflict (see
//! [`Verdict`]); 0 means clean.
// Doc comments here are clap's --help text (`ORDER[:PARAM]`), not rustdoc links.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::{CommandFactory, Parser, Subcommand};

// First, so that its `outln!`, `out!` and `errln!` reach every module below.
#[macro_use]
mod output;

mod args;
#[cfg(test)]
mod claims;
mod cmd;
mod memory;
mod plot;

use cmd::{
    apply, bench, check, decode, emit_header, l2, l2_study, layout_check, plan, profile, ptxas,
    raster, report, show, synth, tune, verify, wavefronts,
};
use output::{finish, refuse, usage_line, Verdict};

#[derive(Parser)]
#[command(
    name = "swz",
    version,
    about = "Checked GPU shared-memory swizzles and threadblock rasters",
    after_help = "Exit status: 0 success (for check/synth: conflict-free), 1 check found a bank conflict, synth \
                  found no conflict-free swizzle, or verify/report found a wrong result, 2 bad input or any other \
                  error (one line on stderr). Long GPU subcommands report progress on stderr; stdout is the report."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print apply(o) for each offset o in a range, one per line.
    Apply(apply::Args),
    /// Print a threadblock order: one `bid x y` line per launched block.
    Raster(raster::Args),
    /// Draw a swizzled tile as a grid (and optionally an SVG).
    Show(show::Args),
    /// Wavefronts of one warp instruction (or a JSON-lines batch on stdin).
    Wavefronts(wavefronts::Args),
    /// Tile-level bank-conflict report for access patterns (`swz check desc|tma --help`: a wgmma / tcgen05
    /// descriptor or a TMA map against an operand tile).
    Check(check::Args),
    /// Find the smallest XOR swizzle that makes all patterns conflict-free.
    Synth(synth::Args),
    /// Write the generated CUDA/C++ header.
    EmitHeader(emit_header::Args),
    /// Decode a wgmma / tcgen05 shared-memory descriptor or a tcgen05 instruction descriptor, field by field
    /// (`swz check desc|tma` checks one against an operand tile).
    Decode(decode::Args),
    /// Predict a GEMM's DRAM reads and L2 hit rate under a block order (the L2 traffic model).
    L2(l2::Args),
    /// On the GPU: the threadblock-swizzling article's L2 study (every shape x order, cuBLAS beside, the model's prediction per row).
    L2Study(l2_study::Args),
    /// Plan a GEMM: the Hopper kernel variant the model picks, its predicted time and bound (no GPU needed).
    Plan(plan::Args),
    /// Run a benchmark family on the GPU.
    Bench(bench::Args),
    /// On the GPU: a family's tuning tools (sweeps, interleaved rounds against cuBLAS, bursts, diagnostics).
    Tune(tune::Args),
    /// On the GPU: every spec of a family against its host reference.
    Verify(verify::Args),
    /// The bank model's predicted shared-memory wavefronts against Nsight Compute's counts.
    Profile(profile::Args),
    /// Compile a family's variants with `ptxas -v` (NVRTC, no GPU): registers, spills, CUBINs.
    Ptxas(ptxas::Args),
    /// The main job: report the shipped kernels' layouts; with a GPU also verify and benchmark them.
    Report(report::Args),
}

fn main() {
    // `swz check desc|tma ...` (descriptor and tensor-map checks) exits there; the bank check's flags stay clap's.
    layout_check::dispatch(Cli::command);
    // clap's usage errors span several lines; ours are one line (`swz: <reason>`), exit 2. Help and version
    // print in full and exit 0.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => refuse(usage_line(&e, Cli::command)),
    };
    let clean = |r: Result<(), String>| r.map(|()| Verdict::Clean);
    finish(match cli.command {
        Command::Apply(a) => clean(apply::run(a)),
        Command::Raster(a) => clean(raster::run(a)),
        Command::Show(a) => clean(show::run(a)),
        Command::Wavefronts(a) => clean(wavefronts::run(a)),
        Command::Check(a) => check::run(a),
        Command::Synth(a) => synth::run(a),
        Command::EmitHeader(a) => clean(emit_header::run(a)),
        Command::Decode(a) => decode::run(a),
        Command::L2(a) => clean(l2::run(a)),
        Command::L2Study(a) => clean(l2_study::run(a)),
        Command::Plan(a) => clean(plan::run(a)),
        Command::Bench(a) => clean(bench::run(a)),
        Command::Tune(a) => clean(tune::run(a)),
        Command::Verify(a) => verify::run(a),
        Command::Profile(a) => profile::run(a),
        Command::Ptxas(a) => ptxas::run(a),
        Command::Report(a) => report::run(a),
    })
}
