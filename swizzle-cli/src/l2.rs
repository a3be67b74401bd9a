//! `swz l2`: the L2 traffic model (`swizzle_core::l2`) from the command line. Predicts the DRAM bytes a tiled GEMM
//! reads and the L2 hit rate Nsight Compute would report, for one block order or (`--order all`) for every order
//! of the study, ranked. `--json` prints one JSON object; `--svg FILE` draws the ranking as a bar chart.

use crate::plot::{bars_svg, Bar};
use std::path::PathBuf;
use swizzle_core::l2::{
    predict, BlockTile, Gemm, L2Config, Machine, Prediction, Schedule, STUDY_ORDERS,
};
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
    /// The GEMM, MxNxK.
    #[arg(long, value_name = "MxNxK")]
    gemm: String,
    /// Block tile BMxBNxBK.
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
    /// Physical L2 size: an integer, or with KiB/MiB/GiB (overrides --device).
    #[arg(long, value_name = "BYTES")]
    l2_bytes: Option<String>,
    /// L2 partitions (overrides --device; h100/h200: 2). The model's LRU holds l2-bytes / partitions (8% of the
    /// chunks see 13/25 of that: the crowded pool).
    #[arg(long)]
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

/// `50MiB`, `52428800`, `4KiB`.
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
}

fn config(args: &Args) -> Result<(L2Config, Vec<Raster>), String> {
    let gemm: Gemm = args.gemm.parse().map_err(|e| format!("--gemm: {e}"))?;
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
        vec![crate::raster::parse_order(&args.order, None)?]
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
    let all = orders.len() > 1;
    // Every order that can run on this grid (Morton needs power-of-two sides; skipped under `all`, an error alone).
    let mut results = Vec::new();
    for r in orders {
        match predict(&L2Config { raster: r, ..base }) {
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
        std::fs::write(path, svg).map_err(|e| format!("--svg: writing {}: {e}", path.display()))?;
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
