//! `swz report`: the main job. One command, two modes:
//! - **no GPU** (no driver, or no device): the layouts of the shipped shared-memory kernels (spec, the header
//!   line the kernel compiles with, the bank model's verdict on each smem access, bank maps of the first write
//!   and read instruction), then `no CUDA driver found — layout report only`;
//! - **GPU**: the same layout report, then a quick correctness pass of every shipped kernel (random data,
//!   poisoned output, odd and even sizes, fp32 and fp16), then the bandwidth tables.

use crate::bench::{print_report, write_outputs};
use gpu_kernels::bench::{BenchConfig, Report};
use gpu_kernels::transpose::bench::{default_kernels, sweep};
use gpu_kernels::transpose::smem::{Access, SmemSpec, SPECS};
use gpu_kernels::transpose::{check_all, Transpose};
use gpu_kernels::{Elem, Error, Gpu};
use std::path::PathBuf;
use swizzle_core::bank::map::ascii;

#[derive(clap::Args)]
pub struct Args {
    /// Skip the GPU part even when a GPU is present (layout report only).
    #[arg(long)]
    layout_only: bool,
    /// Square sizes for the benchmark tables (GPU mode).
    #[arg(long, value_delimiter = ',', default_values_t = [8192u32, 16384], value_parser = clap::value_parser!(u32).range(1..=65536))]
    sizes: Vec<u32>,
    /// Timed runs per kernel (GPU mode).
    #[arg(long, default_value_t = 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    iters: usize,
    /// Also print the bank map of every conflict-free access (conflicting ones always get their worst
    /// instruction's map).
    #[arg(long)]
    bank_maps: bool,
    /// Write the benchmark tables as JSON (GPU mode).
    #[arg(long)]
    json: Option<PathBuf>,
    /// GPU ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
}

/// Sizes of the quick correctness pass (rows x cols): one of everything, tails included.
const VERIFY_SIZES: [(u32, u32); 3] = [(97, 131), (1000, 1000), (4097, 1023)];

/// Seed block shape shown next to the shipped kernels: the article's best, (8,32).
const SEED_BLOCK: [(u32, u32); 1] = [(8, 32)];

pub fn run(args: Args) -> Result<(), String> {
    let gpu = if args.layout_only {
        None
    } else {
        open(args.device)?
    };
    match &gpu {
        Some(g) => outln!(
            "mode: GPU ({}) — layout report, verification and benchmark\n",
            g.props()
        ),
        None if args.layout_only => outln!("mode: layout report only (--layout-only)\n"),
        None => outln!("mode: no CUDA driver found — layout report only\n"),
    }
    layout_report(args.bank_maps);
    let Some(gpu) = gpu else {
        if !args.layout_only {
            outln!("no CUDA driver found — layout report only");
        }
        return Ok(());
    };
    verify(&gpu)?;
    let cfg = BenchConfig {
        iters: args.iters,
        ..BenchConfig::default()
    };
    let tables = sweep(
        &gpu,
        &args.sizes,
        &[Elem::F32, Elem::F16],
        |e| default_kernels(e, &SEED_BLOCK),
        &cfg,
    )
    .map_err(|e| e.to_string())?;
    let report = Report::of_this_run(gpu.props().clone(), &cfg, tables);
    outln!("## Benchmark (transpose, GB/s counts bytes read + written)\n");
    print_report(&report);
    write_outputs(&report, args.json.as_ref(), None)?;
    outln!(
        "mode: GPU — layouts reported, {} kernels verified, tables above",
        shipped_count()
    );
    Ok(())
}

/// `Some(gpu)`, `None` when there is no driver or no device (the layout-only mode), an error otherwise.
fn open(device: usize) -> Result<Option<Gpu>, String> {
    match Gpu::open(device) {
        Ok(g) => Ok(Some(g)),
        Err(Error::NoDriver | Error::NoDevice { .. }) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

fn layout_report(bank_maps: bool) {
    outln!("## Shared-memory layouts of the shipped transpose kernels\n");
    outln!(
        "Predicted by swizzle-core's bank model on each kernel's own smem lane addresses \
         (gpu_kernels::transpose::smem); padded and swizzled specs are also checked conflict-free at compile time.\n"
    );
    for spec in SPECS {
        outln!("### {spec}");
        outln!("header: {}", header_line(&spec));
        for access in Access::BOTH {
            let r = spec.tile_report(access);
            out!("{r}");
            // A conflicting access always gets the bank map of its worst instruction (that is the evidence);
            // --bank-maps adds the first instruction of every access, conflict-free ones included.
            if let (Some((i, worst)), true) = (&r.worst, r.conflicts() > 0) {
                outln!(
                    "bank map, worst {} instruction ({i}):\n{}",
                    access.name(),
                    ascii(worst)
                );
            } else if bank_maps {
                let first = spec.warp_instructions(access)[0].report();
                outln!(
                    "bank map, first {} instruction:\n{}",
                    access.name(),
                    ascii(&first)
                );
            }
        }
        outln!();
    }
}

/// The `using TileSwz = ...` line of the header the spec compiles with.
fn header_line(spec: &SmemSpec) -> String {
    let (src, opts) = Transpose::Smem(*spec).source(spec.elem);
    let line = src.headers[0]
        .text
        .lines()
        .find(|l| l.contains("TileSwz"))
        .unwrap_or("(no TileSwz)")
        .trim()
        .to_string();
    format!("{line}  {}", opts.join(" "))
}

fn shipped_count() -> usize {
    [Elem::F32, Elem::F16]
        .iter()
        .map(|e| default_kernels(*e, &SEED_BLOCK).len())
        .sum()
}

fn verify(gpu: &Gpu) -> Result<(), String> {
    outln!(
        "## Verification (random data, poisoned output, every element compared with the host)\n"
    );
    let mut failures = Vec::new();
    for (rows, cols) in VERIFY_SIZES {
        for elem in [Elem::F32, Elem::F16] {
            let kernels = default_kernels(elem, &SEED_BLOCK);
            let f = match elem {
                Elem::F32 => check_all::<f32>(gpu, rows, cols, &kernels),
                Elem::F16 => check_all::<gpu_kernels::elem::F16>(gpu, rows, cols, &kernels),
                e => return Err(format!("no transpose checks for {e}")),
            }
            .map_err(|e| e.to_string())?;
            outln!(
                "{rows}x{cols} {elem}: {} kernels, {} wrong",
                kernels.len(),
                f.len()
            );
            failures.extend(f);
        }
    }
    outln!();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("verification failed:\n{}", failures.join("\n")))
    }
}
