//! `swz raster --order ORDER [--tile T] --grid GXxGY`: print the threadblock order, one `bid x y` line per launched
//! block in launch order (`bid = blockIdx.y * gridDim.x + blockIdx.x` over the launch grid).
//!
//! `--grid` is the TILE grid. Every order launches exactly that grid except `cutlass`, which launches
//! `(GX << log_tile) x ceil(GY / 2^log_tile)` blocks; its padding blocks compute nothing and print as `bid - -`.
//! Bad input is one line on stderr and exit code 2 (see `crate::output`).
//!
//! Limits: the launch grid must be launchable (`gridDim.y <= 65535`; `gridDim.x <= 2^31 - 1` is the order's own
//! check), and a grid of more than [`MAX_LINES`] blocks is refused unless `--all` (print them all) or `--limit N`
//! (print the first N) says what is wanted: `65535x65535` would be 4.3 billion lines. `--svg` draws every tile of
//! the grid (one cell each), so it is refused above [`MAX_SVG_TILES`] tiles whatever `--limit` says.
use std::io::Write;
use swizzle_core::raster::{Grid, Raster};

#[derive(clap::Args)]
#[command(
    after_help = "Output: one line `bid x y` per launched block, in launch order. Idle blocks (the padding \
                        blocks of `cutlass`, whose launch grid is larger than the tile grid) print as `bid - -`.\n\n\
                        Examples:\n  swz raster --order strip --tile 4 --grid 8x4\n  \
                        swz raster --order cutlass:2 --grid 5x3\n  swz raster --order morton --grid 16x8"
)]
pub struct Args {
    /// The order: identity, strip, cutlass, group-m (also group_m), serpentine, morton, diagonal. The parameter may
    /// be given here (`strip:4`, `strip(tile=4)`, `group-m(group=8)`) or with its own flag.
    #[arg(long, value_name = "ORDER")]
    order: String,
    /// strip's parameter: tiles per strip.
    #[arg(long, value_name = "T")]
    tile: Option<u32>,
    /// cutlass's parameter (also --log_tile).
    #[arg(long, value_name = "L", alias = "log_tile")]
    log_tile: Option<u32>,
    /// group-m's parameter (also --group-m, --group_m).
    #[arg(long, value_name = "G", aliases = ["group-m", "group_m"])]
    group: Option<u32>,
    /// serpentine's parameter.
    #[arg(long, value_name = "P")]
    panel: Option<u32>,
    /// The tile grid, GXxGY (e.g. 32x8).
    #[arg(long, value_name = "GXxGY")]
    grid: String,
    /// Print only the first N launched blocks.
    #[arg(long, value_name = "N", conflicts_with = "all")]
    limit: Option<u64>,
    /// Print every launched block even when there are more than 1048576.
    #[arg(long)]
    all: bool,
    /// Also draw the grid as an SVG: tiles coloured by launch order, the first wave outlined (grids of at most
    /// 65536 tiles, e.g. 256x256).
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// SMs, for the first wave of --svg (SMs x resident blocks).
    #[arg(long, default_value_t = 132, value_parser = clap::value_parser!(u32).range(1..))]
    sms: u32,
    /// Blocks resident per SM, for the first wave of --svg.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    resident: u32,
}

/// Most blocks printed without `--all` or `--limit`.
pub const MAX_LINES: u64 = 1 << 20;

/// Most tiles `--svg` draws (256x256): the picture has one cell per tile of the whole grid.
pub const MAX_SVG_TILES: u64 = 1 << 16;

/// CUDA's limit on `gridDim.y` (and `.z`).
pub const MAX_GRID_Y: u32 = 65535;

/// The raster named by `--order` and at most one parameter flag (`(key, value)`: the key that flag spells).
pub fn parse_order(order: &str, param: Option<(&str, u32)>) -> Result<Raster, String> {
    let r = match param {
        Some((key, _)) if order.contains([':', '(']) => {
            return Err(format!(
                "--order {order:?} already has a parameter; drop --{}",
                key.replace('_', "-")
            ))
        }
        Some((key, p)) => swizzle_core::spelling::raster_parts(order.trim(), Some((Some(key), p))),
        None => swizzle_core::spelling::raster(order),
    };
    r.map_err(|e| format!("--order: {e}"))
}

/// The one parameter flag given, as `(key, value)`.
fn param(args: &Args) -> Result<Option<(&'static str, u32)>, String> {
    let given: Vec<(&'static str, u32)> = [
        ("tile", args.tile),
        ("log_tile", args.log_tile),
        ("group", args.group),
        ("panel", args.panel),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k, v)))
    .collect();
    match given[..] {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        _ => Err(format!(
            "--{} and --{}: an order takes one parameter",
            given[0].0.replace('_', "-"),
            given[1].0.replace('_', "-")
        )),
    }
}

pub fn run(args: Args) -> Result<(), String> {
    let raster = parse_order(&args.order, param(&args)?)?;
    let grid: Grid = args.grid.parse().map_err(|e| format!("--grid: {e}"))?;
    raster.validate(grid).map_err(|e| e.to_string())?;
    let launch = raster.launch_grid(grid);
    if launch.y > MAX_GRID_Y {
        return Err(format!(
            "--grid {grid}: launch grid {launch} has gridDim.y = {} > {MAX_GRID_Y}, CUDA's limit (put the long side \
             along x)",
            launch.y
        ));
    }
    let blocks = launch.blocks();
    if blocks > u32::MAX as u64 {
        return Err(format!(
            "--grid {grid}: launch grid {launch} has {blocks} blocks, more than a 32-bit block index reaches"
        ));
    }
    if blocks > MAX_LINES && !args.all && args.limit.is_none() {
        return Err(format!(
            "--grid {grid}: {blocks} blocks, more than {MAX_LINES} lines; add --limit N for the first N, or --all"
        ));
    }
    if args.svg.is_some() && grid.blocks() > MAX_SVG_TILES {
        return Err(format!(
            "--svg: the {grid} tile grid has {} tiles; the picture draws every tile and holds at most \
             {MAX_SVG_TILES} (e.g. 256x256)",
            grid.blocks()
        ));
    }
    let launched = blocks.min(args.limit.unwrap_or(u64::MAX)) as u32;
    if let Some(path) = &args.svg {
        let svg = crate::plot::raster_svg(raster, grid, args.sms as u64 * args.resident as u64);
        crate::output::write_file("--svg", path, &svg)?;
    }

    let mut out = std::io::BufWriter::new(crate::output::stdout());
    for bid in 0..launched {
        match raster.tile_of(bid, grid) {
            Some((x, y)) => writeln!(out, "{bid} {x} {y}"),
            None => writeln!(out, "{bid} - -"),
        }
        .map_err(crate::output::stdout_failed)?;
        // A closed pipe (`swz raster ... | head`): nothing is left to decide, stop.
        if crate::output::stdout_closed() {
            break;
        }
    }
    out.flush().map_err(crate::output::stdout_failed)
}
