//! `swz l2`: the L2 traffic model (`swizzle_core::l2`) from the command line. Predicts the DRAM bytes a tiled GEMM
//! reads and the L2 hit rate Nsight Compute would report, for one block order or (`--order all`) for every order
//! of the study, ranked. `--json` prints one JSON object; `--svg FILE` draws the ranking as a bar chart.
//!
//! Bound: the model replays every block's K steps through an LRU of the chunks it touches, so its time grows
//! with `blocks x K steps x orders` and its memory with the chunk count. A problem above [`MAX_STEPS`] block
//! steps (all orders together) or [`MAX_CHUNKS`] chunks is refused with one line (use a larger `--tile` or
//! one `--order`): about 5 s and 250 MB at most.

use crate::plot::{bars_svg, Bar};
use std::path::PathBuf;
use swizzle_core::l2::{predict, BlockTile, L2Config, Machine, Prediction, Schedule, STUDY_ORDERS};
use swizzle_core::raster::Raster;

#[derive(clap::Args)]
#[command(
    after_help = "Machine: --device presets the SM count and L2 size (h100: 132 SMs, 50 MiB; h200: 132 SMs, \
                        60 MiB; both 2 resident blocks); --sms, --resident and --l2-bytes override it.\n\n\
                        Examples:\n  swz l2 --gemm 4096x4096x4096 --order strip:4\n  \
                        swz l2 --gemm 8192x8192x8192 --order all --device h200 --svg l2.svg\n  \
                        swz l2 --gemm 1024x1024x128 --tile 32x32x32 --elem f32 --order group-m:8 --sms 132 \
                        --resident 2 --l2-bytes 50MiB --json"
)]
pub struct Args {
    /// The GEMM, MxNxK (each side 1 to 1048576, 2^20).
    #[arg(long, value_name = "MxNxK")]
    gemm: String,
    /// Block tile BMxBNxBK (each side 1 to 1048576).
    #[arg(long, value_name = "BMxBNxBK", default_value = "32x32x32")]
    tile: String,
    /// Element type of A and B (f32, f16, bf16, ...).
    #[arg(long, default_value = "f32")]
    elem: String,
    /// Block order: identity, strip:T, group-m:G, serpentine:P, morton, diagonal, cutlass:L, or `all`.
    #[arg(long, value_name = "ORDER[:P]|all")]
    order: String,
    /// Machine preset: h100 or h200.
    #[arg(long, value_name = "h100|h200", default_value = "h100")]
    device: String,
    /// SM count (overrides --device).
    #[arg(long)]
    sms: Option<u32>,
    /// Blocks resident per SM at once (overrides --device).
    #[arg(long)]
    resident: Option<u32>,
    /// Physical L2 size: an integer, or with KiB/MiB/GiB, at most 1 TiB (overrides --device).
    #[arg(long, value_name = "BYTES")]
    l2_bytes: Option<String>,
    /// L2 partitions (overrides --device; h100/h200: 2). The model's LRU holds l2-bytes / partitions (8% of the
    /// chunks see 13/25 of that: the crowded pool).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    partitions: Option<u32>,
    /// How blocks start: lockstep (waves), staggered (sliding window), or a blend, as the staggered percentage.
    #[arg(long, default_value = "50")]
    schedule: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Write the predicted DRAM bytes per order as an SVG bar chart.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Most block K steps one run models, over all its orders (8192^3 with 32^3 tiles and every order is 2^27.8).
pub const MAX_STEPS: u64 = 1 << 28;

/// Most distinct chunks (A and B tiles per K step, C tiles) one model holds.
pub const MAX_CHUNKS: u64 = 1 << 24;

/// Above this many chunks the orders of `--order all` are modelled one at a time (each model holds about 17 bytes
/// per chunk and 12 per block).
const PARALLEL_CHUNKS: u64 = 1 << 22;

/// Refuse a problem the model would take too long or too much memory for (see the module doc).
fn check_work(cfg: &L2Config, orders: usize) -> Result<(), String> {
    let grid = cfg.grid();
    let ks = cfg.gemm.k.div_ceil(cfg.tile.bk) as u64;
    let chunks = (grid.x as u64 + grid.y as u64) * ks + grid.blocks();
    let steps = grid.blocks() * ks * orders as u64;
    if chunks > MAX_CHUNKS {
        return Err(format!(
            "--gemm {} with --tile {}: {chunks} chunks, more than the model holds ({MAX_CHUNKS}); use a larger --tile",
            cfg.gemm, cfg.tile
        ));
    }
    if steps > MAX_STEPS {
        return Err(format!(
            "--gemm {} with --tile {}: {steps} block steps{}, more than one run models ({MAX_STEPS}); use a larger \
             --tile{}",
            cfg.gemm,
            cfg.tile,
            if orders > 1 { " over all orders" } else { "" },
            if orders > 1 { " or one --order" } else { "" }
        ));
    }
    Ok(())
}

/// The largest `--l2-bytes`: 1 TiB, thousands of times any GPU's L2.
const MAX_L2_BYTES: u64 = 1 << 40;

/// `50MiB`, `52428800`, `4KiB`: 1 byte to [`MAX_L2_BYTES`].
fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (num, mult) = [("KiB", 1u64 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30)]
        .iter()
        .find_map(|(suf, m)| t.strip_suffix(suf).map(|n| (n, *m)))
        .unwrap_or((t, 1));
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("--l2-bytes: expected a positive byte count such as 52428800 or 50MiB, got {text:?}"))
        .and_then(|n| {
            if n > MAX_L2_BYTES {
                Err(format!("--l2-bytes: {text} is above 1 TiB, the most the model takes"))
            } else {
                Ok(n)
            }
        })
}

fn config(args: &Args) -> Result<(L2Config, Vec<Raster>), String> {
    let gemm: swizzle_core::Size = args.gemm.parse().map_err(|e| format!("--gemm: {e}"))?;
    let tile: BlockTile = args.tile.parse().map_err(|e| format!("--tile: {e}"))?;
    let elem = crate::args::parse_elem(&args.elem)?;
    let mut machine = Machine::preset(&args.device)
        .ok_or_else(|| format!("--device: expected h100 or h200, got {:?}", args.device))?;
    if let Some(s) = args.sms {
        machine.sms = s;
    }
    if let Some(r) = args.resident {
        machine.resident = r;
    }
    if let Some(p) = args.partitions {
        machine.partitions = p;
    }
    if let Some(b) = &args.l2_bytes {
        machine.l2_bytes = parse_bytes(b)?;
    }
    if args.l2_bytes.is_some() || args.partitions.is_some() {
        // The crowded pool scales with the L2 the flags describe.
        machine.crowded_bytes =
            Machine::new(0, 0, machine.l2_bytes, machine.partitions).crowded_bytes;
    }
    let schedule = Schedule::from_name(&args.schedule).ok_or_else(|| {
        format!(
            "--schedule: expected staggered, lockstep or a stagger percentage 0..=100, got {:?}",
            args.schedule
        )
    })?;
    let orders = if args.order.trim() == "all" {
        STUDY_ORDERS.to_vec()
    } else {
        vec![crate::cmd::raster::parse_order(&args.order, None)?]
    };
    let cfg = L2Config {
        gemm,
        tile,
        elem_bytes: elem.bytes(),
        raster: orders[0],
        machine,
        schedule,
    };
    Ok((cfg, orders))
}

fn json_of(r: Raster, p: &Prediction) -> serde_json::Value {
    serde_json::json!({
        "order": r.to_string(),
        "dram_read_bytes": p.dram_read_bytes,
        "l2_hit_rate": p.l2_hit_rate,
        "read_hit_rate": p.read_hit_rate,
        "l2_read_bytes": p.l2_read_bytes,
        "l2_write_bytes": p.l2_write_bytes,
        "compulsory_bytes": p.compulsory_bytes,
        "waves": p.waves,
    })
}

pub fn run(args: Args) -> Result<(), String> {
    let (base, orders) = config(&args)?;
    check_work(&base, orders.len())?;
    let all = orders.len() > 1;
    // Every order that can run on this grid (Morton needs power-of-two sides; skipped under `all`, an error alone).
    // The orders are independent: one thread per core, each taking every `threads`-th order, while the model's
    // arrays are small (each thread holds its own; one thread above PARALLEL_CHUNKS keeps the memory bound).
    let grid = base.grid();
    let chunks =
        (grid.x as u64 + grid.y as u64) * base.gemm.k.div_ceil(base.tile.bk) as u64 + grid.blocks();
    let threads = if chunks > PARALLEL_CHUNKS {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(orders.len())
            .max(1)
    };
    let predictions: Vec<(Raster, Result<Prediction, swizzle_core::l2::L2Error>)> =
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let mine: Vec<Raster> =
                        orders.iter().copied().skip(t).step_by(threads).collect();
                    s.spawn(move || {
                        mine.into_iter()
                            .map(|r| (r, predict(&L2Config { raster: r, ..base })))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let mut all: Vec<_> = handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            // Back in the order given.
            all.sort_by_key(|(r, _)| orders.iter().position(|o| o == r));
            all
        });
    let mut results = Vec::new();
    for (r, p) in predictions {
        match p {
            Ok(p) => results.push((r, p)),
            Err(swizzle_core::l2::L2Error::Raster(_)) if all => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    if all {
        results.sort_by_key(|(_, p)| p.dram_read_bytes);
    }
    let m = base.machine;
    let what = format!(
        "{} {} x{}B, tile {}, {} SMs x {} resident = {} blocks at once, L2 {:.1} MiB in {} partition(s) (LRU of {:.1} MiB), {}",
        base.gemm,
        args.elem,
        base.elem_bytes,
        base.tile,
        m.sms,
        m.resident,
        m.wave(),
        m.l2_bytes as f64 / (1u64 << 20) as f64,
        m.partitions,
        m.effective_l2_bytes() as f64 / (1u64 << 20) as f64,
        base.schedule.name()
    );
    if args.json {
        let body = if all {
            serde_json::json!({
                "gemm": base.gemm.to_string(), "tile": base.tile.to_string(), "elem_bytes": base.elem_bytes,
                "sms": m.sms, "resident": m.resident, "l2_bytes": m.l2_bytes, "partitions": m.partitions, "schedule": base.schedule.name(),
                "orders": results.iter().map(|(r, p)| json_of(*r, p)).collect::<Vec<_>>(),
            })
        } else {
            let mut v = json_of(results[0].0, &results[0].1);
            v["gemm"] = base.gemm.to_string().into();
            v["tile"] = base.tile.to_string().into();
            v["elem_bytes"] = base.elem_bytes.into();
            v["sms"] = m.sms.into();
            v["resident"] = m.resident.into();
            v["l2_bytes"] = m.l2_bytes.into();
            v["partitions"] = m.partitions.into();
            v["schedule"] = base.schedule.name().into();
            v
        };
        outln!("{body}");
    } else {
        outln!("{what}");
        outln!("| order | DRAM read (GB) | x compulsory | L2 hit (ncu) | L2 load hit | waves |");
        outln!("|---|--:|--:|--:|--:|--:|");
        for (r, p) in &results {
            outln!(
                "| {r} | {:.3} | {:.2} | {:.1}% | {:.1}% | {} |",
                p.dram_read_bytes as f64 / 1e9,
                p.dram_read_bytes as f64 / p.compulsory_bytes as f64,
                100.0 * p.l2_hit_rate,
                100.0 * p.read_hit_rate,
                p.waves
            );
        }
        if let Some((_, p)) = results.first() {
            outln!(
                "L2 load requests {:.3} GB, stores {:.3} GB, compulsory reads {:.3} GB",
                p.l2_read_bytes as f64 / 1e9,
                p.l2_write_bytes as f64 / 1e9,
                p.compulsory_bytes as f64 / 1e9
            );
        }
    }
    if let Some(path) = &args.svg {
        let bars: Vec<Bar> = results
            .iter()
            .map(|(r, p)| Bar {
                label: r.to_string(),
                bytes: p.dram_read_bytes,
                hit_rate: p.l2_hit_rate,
            })
            .collect();
        let compulsory = results.first().map_or(0, |(_, p)| p.compulsory_bytes);
        let svg = bars_svg(
            &format!("Predicted DRAM reads, GEMM {} ({})", base.gemm, args.elem),
            &what.replacen(", L2", "\nL2", 1),
            &bars,
            compulsory,
        );
        crate::output::write_file("--svg", path, &svg)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn byte_counts() {
        assert_eq!(parse_bytes("50MiB"), Ok(50 << 20));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes(" 2 KiB"), Ok(2048));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("50MB").is_err());
        assert!(parse_bytes("-1").is_err());
    }
}
