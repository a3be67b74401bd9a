//! `swz emit-header [-o FILE] [--swizzle NAME=B,M,S ...] [--raster NAME=ORDER[:PARAM] ...] [--layout ...]
//! [--guard MACRO]`: write the generated CUDA/C++ header (`swizzle_core::cuda`) to stdout or FILE, with optional
//! named specs.
//!
//! Bad input is one line on stderr and exit code 2 (see `crate::output`).
use std::path::PathBuf;
use swizzle_core::cuda::Header;
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::units::ByteMode;
use swizzle_core::{Smem, Swizzle, SwizzleFn};

#[derive(clap::Args)]
#[command(
    after_help = "The header (namespace swz) holds Swizzle<B,M,S>, Tile, the raster_* functions and their \
                        device conveniences, then the named specs:\n  \
                        --swizzle SmemA=3,3,3      ->  using SmemA = swz::Swizzle<3, 3, 3>;\n  \
                        --raster GemmOrder=strip:4 ->  struct GemmOrder { tile_of(bid, gx, gy); launch_grid(gx, gy); \
                        here(); }\n\n\
                        --layout A=64x64:f16:3,3,3 ->  using A = swz::Layout<64, 64, 2, false, swz::Swizzle<3, 3, 3>, 2, 0>; \
                        (A::offset(row, col), A::byte_offset, A::BYTES; unit and padding are template arguments)\n  \
                        --swizzle A=SW128 needs --unit (bytes, or the element type whose offsets it acts on)\n\n\
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
    /// A named swizzle, NAME=B,M,S (also Sw<B,M,S>, two layers B,M,S+B,M,S, or NAME=SW128 etc. for a byte mode);
    /// repeatable.
    #[arg(long, value_name = "NAME=B,M,S", allow_hyphen_values = true)]
    swizzle: Vec<String>,
    /// A named raster, NAME=ORDER[:PARAM] (e.g. GemmOrder=strip:4, T=diagonal); repeatable.
    #[arg(long, value_name = "NAME=ORDER[:PARAM]")]
    raster: Vec<String>,
    /// A named shared-memory layout, NAME=ROWSxCOLS:ELEM:SWIZZLE[:pad=BYTES][:unit=UNIT][:col] (SWIZZLE: none,
    /// B,M,S, B,M,S+B,M,S, or SW32/SW64/SW128 on bytes); emits `using NAME = swz::Layout<...>` with
    /// `offset(row, col)`; repeatable.
    #[arg(
        long,
        value_name = "NAME=ROWSxCOLS:ELEM:SWIZZLE[:pad=P]",
        allow_hyphen_values = true
    )]
    layout: Vec<String>,
    /// The unit a byte-mode `--swizzle` (SW32/SW64/SW128) is emitted for: `bytes` (byte addresses) or an element
    /// type (its element offsets). Required for byte modes: a bare `swz::Swizzle` does not say what it counts.
    #[arg(long, value_name = "UNIT")]
    unit: Option<String>,
    /// An MMA operand tile, NAME=MODE:ELEM:MAJOR:MNxK (e.g. GemmA=SW128:bf16:K:128x64): its TMA box and swizzle,
    /// its wgmma and tcgen05 descriptors, and constexpr checks (`desc_ok`, `desc_sbo_in_bytes`, `tma_swizzle_ok`,
    /// `smem_aligned`, ...) for static_asserts on descriptors and tensor maps a kernel builds itself; repeatable.
    #[arg(long, value_name = "NAME=MODE:ELEM:MAJOR:MNxK")]
    operand: Vec<String>,
    /// A tcgen05.mma instruction descriptor, NAME=A:B:D:MxN:AMAJOR:BMAJOR[:cta_group] (e.g.
    /// Mma=bf16:bf16:f32:128x256:K:K): IDESC, the shape, the accumulator's TMEM columns, `idesc_ok(d)`; repeatable.
    #[arg(long, value_name = "NAME=A:B:D:MxN:AMAJ:BMAJ")]
    mma: Vec<String>,
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

/// The header the arguments describe: named swizzles (byte modes need `unit`), rasters, layouts and the guard.
pub fn build_with(
    swizzles: &[String],
    rasters: &[String],
    layouts: &[String],
    unit: Option<&str>,
    guard: Option<&str>,
) -> Result<Header, String> {
    let mut header = Header::new();
    let unit = unit
        .map(|u| swizzle_core::spelling::unit(u).map_err(|e| format!("--unit: {e}")))
        .transpose()?;
    for s in swizzles {
        let (name, spec) = named("--swizzle", s)?;
        let sw = match (crate::args::parse_swizzle("--swizzle", spec)?, unit) {
            (SwizzleSpelling::Layers(f), _) => f,
            // The identity is the same on every unit.
            (SwizzleSpelling::Mode(ByteMode::None), _) => SwizzleFn::Single(Swizzle::IDENTITY),
            (SwizzleSpelling::Mode(m), Some(u)) => SwizzleFn::Single(m.swizzle_for(u)),
            (SwizzleSpelling::Mode(m), None) => {
                return Err(format!(
                    "--swizzle {name}={m}: a byte mode acts on byte addresses; say what the kernel indexes with \
                     --unit bytes (emits {} on bytes) or --unit f16/f32/... (element offsets), or emit a whole \
                     layout with --layout {name}=ROWSxCOLS:ELEM:{m}",
                    m.swizzle()
                ))
            }
        };
        header = header
            .try_swizzle_fn(name, sw)
            .map_err(|e| format!("--swizzle: {e}"))?;
    }
    for r in rasters {
        let (name, order) = named("--raster", r)?;
        let raster =
            swizzle_core::spelling::raster(order).map_err(|e| format!("--raster {name}: {e}"))?;
        header = header
            .try_raster(name, raster)
            .map_err(|e| format!("--raster: {e}"))?;
    }
    for l in layouts {
        let (name, spec) = named("--layout", l)?;
        let smem: Smem = spec.parse().map_err(|e| format!("--layout {name}: {e}"))?;
        header = header
            .try_layout(name, smem)
            .map_err(|e| format!("--layout: {e}"))?;
    }
    if let Some(g) = guard {
        header = header.try_guard(g).map_err(|e| format!("--guard: {e}"))?;
    }
    Ok(header)
}

pub fn run(args: Args) -> Result<(), String> {
    let mut header = build_with(
        &args.swizzle,
        &args.raster,
        &args.layout,
        args.unit.as_deref(),
        args.guard.as_deref(),
    )?;
    for o in &args.operand {
        let (name, spec) = named("--operand", o)?;
        let tile =
            swizzle_core::operand::parse(spec).map_err(|e| format!("--operand {name}: {e}"))?;
        header = header
            .try_operand(name, tile)
            .map_err(|e| format!("--operand: {e}"))?;
    }
    for m in &args.mma {
        let (name, spec) = named("--mma", m)?;
        let d =
            swizzle_core::operand::parse_instr(spec).map_err(|e| format!("--mma {name}: {e}"))?;
        header = header
            .try_instr_desc(name, d)
            .map_err(|e| format!("--mma: {e}"))?;
    }
    let text = header.render();
    match &args.output {
        Some(path) => crate::output::write_file("--output", path, &text),
        None => {
            use std::io::Write;
            let mut out = crate::output::stdout();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(crate::output::stdout_failed)
        }
    }
}
