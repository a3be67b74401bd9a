//! `swz emit-header [-o FILE] [--swizzle NAME=B,M,S ...] [--raster NAME=ORDER[:PARAM] ...] [--guard MACRO]`: write
//! the generated CUDA/C++ header (`swizzle_core::cuda`) to stdout or FILE, with optional named specs.
//!
//! Bad input is one line on stderr and exit code 2 (see `main.rs`).
use std::path::PathBuf;
use swizzle_core::cuda::Header;
use swizzle_core::raster::Raster;

#[derive(clap::Args)]
#[command(
    after_help = "The header (namespace swz) holds Swizzle<B,M,S>, Tile, the raster_* functions and their \
                        device conveniences, then the named specs:\n  \
                        --swizzle SmemA=3,3,3      ->  using SmemA = swz::Swizzle<3, 3, 3>;\n  \
                        --raster GemmOrder=strip:4 ->  struct GemmOrder { tile_of(bid, gx, gy); launch_grid(gx, gy); \
                        here(); }\n\n\
                        Names must be C++ identifiers that are not keywords, not reserved (`_Foo`, `__x`) and not \
                        the header's own (Swizzle, Tile, uint32_t, raster_*, ...). Include guards: the library part \
                        is guarded by SWZ_CUH_LIBRARY, the named specs by SWZ_SPECS_<hash of their text> (or \
                        --guard), so two headers with different specs can be included in one file.\n\n\
                        Example:\n  swz emit-header -o swz.cuh --swizzle SmemA=3,3,3 --raster GemmOrder=group-m:8"
)]
pub struct Args {
    /// Write the header to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// A named swizzle, NAME=B,M,S (or NAME=SW128 etc. for a byte mode); repeatable.
    #[arg(long, value_name = "NAME=B,M,S")]
    swizzle: Vec<String>,
    /// A named raster, NAME=ORDER[:PARAM] (e.g. GemmOrder=strip:4, T=diagonal); repeatable.
    #[arg(long, value_name = "NAME=ORDER[:PARAM]")]
    raster: Vec<String>,
    /// Include guard of the named specs (default: SWZ_SPECS_ and a hash of their text). The library part always
    /// has the guard SWZ_CUH_LIBRARY, so several generated headers can be included together.
    #[arg(long, value_name = "MACRO")]
    guard: Option<String>,
}

/// Split `NAME=VALUE`.
fn named<'a>(flag: &str, text: &'a str) -> Result<(&'a str, &'a str), String> {
    text.split_once('=')
        .map(|(n, v)| (n.trim(), v.trim()))
        .ok_or_else(|| format!("{flag}: expected NAME=VALUE, got {text:?}"))
}

/// The header the arguments describe.
pub fn build(
    swizzles: &[String],
    rasters: &[String],
    guard: Option<&str>,
) -> Result<Header, String> {
    let mut header = Header::new();
    for s in swizzles {
        let (name, spec) = named("--swizzle", s)?;
        let sw = crate::apply::parse_swizzle(spec)?.swizzle();
        header = header
            .try_swizzle(name, sw)
            .map_err(|e| format!("--swizzle: {e}"))?;
    }
    for r in rasters {
        let (name, order) = named("--raster", r)?;
        let raster: Raster = order.parse().map_err(|e| format!("--raster {name}: {e}"))?;
        header = header
            .try_raster(name, raster)
            .map_err(|e| format!("--raster: {e}"))?;
    }
    if let Some(g) = guard {
        header = header.try_guard(g).map_err(|e| format!("--guard: {e}"))?;
    }
    Ok(header)
}

pub fn run(args: Args) -> Result<(), String> {
    let text = build(&args.swizzle, &args.raster, args.guard.as_deref())?.render();
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
        }
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(crate::stdout_failed)
        }
    }
}
