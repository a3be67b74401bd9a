//! `swz`: inspect swizzles and rasters, check bank conflicts, emit the CUDA header, run the kernels.
//!
//! Each subcommand lives in its own module with an `Args` (clap) and a `run` returning `Result<(), String>`.
//! Any error prints one line on stderr and exits with code 2 (clap's usage errors exit 2 as well).
// Doc comments here are clap's --help text (`ORDER[:PARAM]`), not rustdoc links.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::{Parser, Subcommand};

mod apply;
mod args;
mod bench;
mod check;
mod emit_header;
mod raster;
mod report;
mod show;
mod synth;
mod wavefronts;

#[derive(Parser)]
#[command(
    name = "swz",
    version,
    about = "Checked GPU shared-memory swizzles and threadblock rasters"
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
    /// Tile-level bank-conflict report for access patterns.
    Check(check::Args),
    /// Find the smallest XOR swizzle that makes all patterns conflict-free.
    Synth(synth::Args),
    /// Write the generated CUDA/C++ header.
    EmitHeader(emit_header::Args),
    /// Run a benchmark family on the GPU.
    Bench(bench::Args),
    /// The main job: report the shipped kernels' layouts; with a GPU also verify and benchmark them.
    Report(report::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Apply(a) => apply::run(a),
        Command::Raster(a) => raster::run(a),
        Command::Show(a) => show::run(a),
        Command::Wavefronts(a) => wavefronts::run(a),
        Command::Check(a) => check::run(a),
        Command::Synth(a) => synth::run(a),
        Command::EmitHeader(a) => emit_header::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Report(a) => report::run(a),
    };
    if let Err(reason) = result {
        eprintln!("swz: {reason}");
        std::process::exit(2);
    }
}
