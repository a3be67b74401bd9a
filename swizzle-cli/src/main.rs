//! `swz`: inspect swizzles and rasters, check bank conflicts, emit the CUDA header, run the kernels.
//!
//! Each subcommand lives in its own module with an `Args` (clap) and a `run` returning `Result<(), String>`.
//! Any error prints one line on stderr and exits with code 2 (clap's usage errors exit 2 as well). `check` and
//! `synth` exit 1 when they checked and found a conflict (see [`Verdict`]); 0 means clean.
// Doc comments here are clap's --help text (`ORDER[:PARAM]`), not rustdoc links.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::{Parser, Subcommand};

/// `println!` for the subcommands through [`output::Stdout`]: a closed pipe (`swz ... | head`) drops the rest of
/// the output quietly and the run goes on to its verdict; any other write error is a one-line reason and exit 2.
/// (`println!` would panic.)
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(crate::output::stdout(), $($arg)*) {
            crate::exit_on_stdout_error(e)
        }
    }};
}

/// `eprintln!` that cannot panic: a stderr that cannot be written loses the line, not the exit status
/// ([`output::stderr_line`]).
macro_rules! errln {
    ($($arg:tt)*) => {
        crate::output::stderr_line(format_args!($($arg)*))
    };
}

/// `print!` with the same handling as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(crate::output::stdout(), $($arg)*) {
            crate::exit_on_stdout_error(e)
        }
    }};
}

mod apply;
mod args;
mod bench;
mod check;
#[cfg(test)]
mod claims;
mod decode;
mod emit_header;
mod l2;
mod l2_study;
mod layout_check;
mod output;
mod plan;
mod plot;
mod profile;
mod ptxas;
mod raster;
mod report;
mod show;
mod synth;
mod tune;
mod verify;
mod wavefronts;

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

/// What a checking subcommand found. `Conflicts` exits 1 after its one-line reason on stderr ("checked, and it
/// conflicts"), so CI can tell a finding (1) from bad input (2) and from a clean run (0).
pub enum Verdict {
    Clean,
    Conflicts(String),
}

/// A failed write to stdout as the one-line reason (a closed pipe is not a failure: see [`output`]).
pub use output::stdout_failed;

fn exit_on_stdout_error(e: std::io::Error) -> ! {
    errln!("swz: {}", stdout_failed(e));
    std::process::exit(2);
}

/// clap's error as one line: the message and its indented details up to the usage block, tips dropped, and
/// where to read more.
fn one_line(e: &clap::Error) -> String {
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return missing_subcommand(std::env::args().skip(1));
    }
    format!("{} (see `swz --help`)", clap_message(e))
}

/// clap's message without its usage block and tips.
fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let parts: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("tip:") && !l.starts_with("For more information")
        })
        .collect();
    let joined = parts.join(" ");
    joined
        .strip_prefix("error: ")
        .unwrap_or(&joined)
        .to_string()
}

/// The subcommands of the command `args` named (`swz tune gemm` -> bench, rounds, ...), for a missing one.
fn missing_subcommand(args: impl Iterator<Item = String>) -> String {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let mut path = Vec::new();
    for arg in args {
        if let Some(sub) = cmd.find_subcommand(&arg).cloned() {
            path.push(sub.get_name().to_string());
            cmd = sub;
        }
    }
    let names: Vec<&str> = cmd
        .get_subcommands()
        .map(|s| s.get_name())
        .filter(|&n| n != "help")
        .collect();
    let list = match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    if path.is_empty() {
        format!("a subcommand is required: {list} (see `swz --help`)")
    } else {
        let path = path.join(" ");
        format!("`swz {path}` needs a subcommand: {list} (see `swz {path} --help`)")
    }
}

fn main() {
    // `swz check desc|tma ...` (descriptor and tensor-map checks) exits there; the bank check's flags stay clap's.
    layout_check::dispatch();
    // clap's usage errors span several lines; ours are one line (`swz: <reason>`), exit 2. Help and version
    // print in full and exit 0.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            errln!("swz: {}", one_line(&e));
            std::process::exit(2);
        }
    };
    let clean = |r: Result<(), String>| r.map(|()| Verdict::Clean);
    let result = match cli.command {
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
    };
    // Flush here so a write error is reported rather than lost at exit; a closed pipe keeps the verdict below.
    if let Err(e) = std::io::Write::flush(&mut output::stdout()) {
        exit_on_stdout_error(e);
    }
    match result {
        Ok(Verdict::Clean) => {}
        Ok(Verdict::Conflicts(reason)) => {
            errln!("swz: {reason}");
            std::process::exit(1);
        }
        Err(reason) => {
            errln!("swz: {reason}");
            std::process::exit(2);
        }
    }
}
