//! `swz plan gemm MxNxK`: the GEMM planner (`swizzle_core::plan`) from the command line. Prints the variant the
//! model picks among the variants the Hopper kernel runs, its predicted time and what bounds it, the shipped
//! kernel's prediction beside it, and the runners-up with why they lost. No GPU needed.

use swizzle_core::plan::{self, why_slower, Device, Estimate, Problem, Variant};
use swizzle_core::Elem;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Plan C (MxN) = X (MxK) · Wᵀ (W: NxK) for the Hopper GEMM.
    #[command(after_help = "Examples:\n  swz plan gemm 16x4096x4096\n  \
                            swz plan gemm 8192x28672x4096 --dtype f16 --device h200\n  \
                            swz plan gemm 16x4096x14336 --dtype e4m3 --scale row\n  \
                            swz plan gemm 128x6144x4096 --top 3 --json")]
    Gemm(GemmArgs),
}

#[derive(clap::Args)]
struct GemmArgs {
    /// The problem, MxNxK: each side 1 to 1048576 (2^20), K a multiple of 8.
    #[arg(value_name = "MxNxK")]
    shape: String,
    /// Element type of X and W (fp32 accumulation): bf16 or f16 (C the same), or e4m3 (C in bf16; K a multiple
    /// of 16).
    #[arg(long, default_value = "bf16", value_name = "bf16|f16|e4m3")]
    dtype: String,
    /// e4m3 only: the fp32 scaling, whose bytes the model counts: one scale per tensor, per row of X and of W,
    /// or per 1x128 block of X and 128x128 block of W.
    #[arg(long, value_name = "tensor|row|block")]
    scale: Option<String>,
    /// Device: h100 or h200.
    #[arg(long, default_value = "h100", value_name = "h100|h200")]
    device: String,
    /// Runners-up to print (one per tile, cluster and split; the best block order of each).
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

fn us(s: f64) -> String {
    if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} us", s * 1e6)
    }
}

fn json_of(e: &Estimate, p: &Problem) -> serde_json::Value {
    let v = e.variant;
    serde_json::json!({
        "variant": v.to_string(),
        "bm": v.bm, "bn": v.bn, "bk": v.bk, "stages": v.stages, "cluster": v.cluster, "split": v.split,
        "tail": v.tail,
        "order": v.order.to_string(),
        "time_s": e.time_s, "tflops": e.tflops(p), "bound": e.bound.name(),
        "tensor_s": e.tensor_s, "l2_s": e.l2_s, "hbm_s": e.hbm_s, "reduce_s": e.reduce_s,
        "units": e.units, "slots": e.slots,
        "dram_read_bytes": e.dram_read_bytes, "dram_write_bytes": e.dram_write_bytes,
    })
}

fn gemm(a: GemmArgs) -> Result<(), String> {
    let size = crate::args::parse_shape(&a.shape)?;
    let dtype = Elem::parse(a.dtype.trim())
        .filter(|e| plan::ELEMS.contains(e))
        .ok_or_else(|| format!("--dtype: expected bf16, f16 or e4m3, got {:?}", a.dtype))?;
    let e4m3 = dtype == Elem::E4M3;
    let scale = match (&a.scale, e4m3) {
        (None, _) => plan::ScaleMode::Tensor,
        (Some(s), true) => crate::args::parse_scale(s)?,
        (Some(_), false) => {
            return Err(format!("--scale applies to --dtype e4m3 only, not {dtype}"))
        }
    };
    let dev = Device::preset(&a.device)
        .ok_or_else(|| format!("--device: expected h100 or h200, got {:?}", a.device))?;
    let p = Problem::new(size, dtype).with_scale(scale);
    let pl = plan::plan(&p, &dev).map_err(|e| e.to_string())?;
    let shipped_variant = Variant::shipped_for(dtype);
    let shipped = plan::estimate(&p, &dev, &shipped_variant).map_err(|e| e.to_string())?;
    let floor = p.min_bytes() as f64 / dev.hbm_bytes_per_s;
    let b = &pl.best;
    if a.json {
        let v = serde_json::json!({
            "problem": size.mnk_text(), "dtype": dtype.name(), "device": dev.name,
            "scale": if e4m3 { Some(scale.name()) } else { None },
            "hbm_floor_s": floor,
            "best": json_of(b, &p),
            "shipped": json_of(&shipped, &p),
            "runners_up": pl.runners_up.iter().take(a.top).map(|e| json_of(e, &p)).collect::<Vec<_>>(),
        });
        outln!("{v}");
        return Ok(());
    }
    if e4m3 {
        outln!(
            "gemm {} {dtype} (per-{scale} scaling, {:.1} KB of scales, bf16 out) on {}",
            size.mnk_text(),
            p.scale_bytes() as f64 / 1e3,
            dev.name
        );
    } else {
        outln!("gemm {} {dtype} on {}", size.mnk_text(), dev.name);
    }
    outln!("plan: {}", b.variant);
    outln!(
        "predicted: {} ({:.1} TFLOP/s), bound: {}",
        us(b.time_s),
        b.tflops(&p),
        b.bound
    );
    outln!(
        "  tensor {} (busiest SM, {} units on {} slots; even share {}), L2 {}, HBM {} (read {:.1} MB, written \
         {:.1} MB), split reduction {}",
        us(b.tensor_s),
        b.units,
        b.slots,
        us(b.tensor_even_s),
        us(b.l2_s),
        us(b.hbm_s),
        b.dram_read_bytes as f64 / 1e6,
        b.dram_write_bytes as f64 / 1e6,
        us(b.reduce_s)
    );
    if let Some(t) = b.variant.tail_split(&p, &dev) {
        outln!(
            "  tail split: the last {} tiles in {} parts of K each (fp32 partials in a {:.1} MB workspace)",
            t.tiles,
            t.parts,
            t.workspace_bytes(b.variant.bm, b.variant.bn) as f64 / 1e6
        );
    }
    outln!(
        "  HBM floor (X + W read once, C written once): {} = {:.0}% of the prediction",
        us(floor),
        100.0 * floor / b.time_s
    );
    if p.scale == plan::ScaleMode::Block && !shipped_variant.block_scaling_fits() {
        outln!(
            "shipped kernel ({shipped_variant}): runs no block scaling (its registers do not fit)"
        );
    } else {
        outln!(
            "shipped kernel ({}): {} ({:.1} TFLOP/s), bound: {}",
            shipped_variant,
            us(shipped.time_s),
            shipped.tflops(&p),
            shipped.bound
        );
    }
    if !pl.runners_up.is_empty() && a.top > 0 {
        outln!("runners-up:");
        // One line per kernel shape: variants that differ only in block order show their best order.
        for e in pl.by_shape().into_iter().skip(1).take(a.top) {
            outln!(
                "  {:<44} {:>10}  {}",
                e.variant.to_string(),
                us(e.time_s),
                why_slower(b, e)
            );
        }
    }
    Ok(())
}

pub fn run(a: Args) -> Result<(), String> {
    match a.what {
        What::Gemm(g) => gemm(g),
    }
}
