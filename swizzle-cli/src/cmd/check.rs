//! `swz check --tile 64x64 --elem f16 --swizzle 3,3,3 --pattern ldmatrix.x4 [--pattern row16] [--svg FILE]`
//!
//! Prints, per pattern, the tile-level report (instructions, wavefronts vs ideal, and the worst instruction with
//! its colliding lanes) and the bank map of that worst instruction. `--svg FILE` draws the bank map of the worst
//! instruction of the most conflicting pattern.
//!
//! The layout: `--swizzle B,M,S` acts on element offsets of `--elem` (a byte mode such as `SW128` acts on bytes);
//! `--then B,M,S` adds a second layer (element offsets); `--pad BYTES` pads each row instead. Patterns are the names
//! of `swizzle_core::pattern::Pattern` (`row16`, `ldmatrix.x4`, `ldmatrix.x4.b`, `ldmatrix.x4.trans`,
//! `stmatrix.x4`, `col.ld`, `col.st`, `row.ld`, `row.st`, `mma.acc`), optionally `@COLS` to walk the tile's memory
//! viewed as rows of COLS elements.
//!
//! Exit code (for CI): 0 when every pattern is conflict-free, 1 when any instruction of any pattern costs more than
//! its ideal (the report is printed in full first, then one line on stderr naming the conflicting patterns), 2 on
//! bad input.
use std::path::PathBuf;
use swizzle_core::bank::map;
use swizzle_core::compose::{Composed, SwizzleFn};
use swizzle_core::pattern::{Layout, Pattern, Smem};
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::tile::{Order, Tile};
use swizzle_core::units::{Elem, Unit};
use swizzle_core::Swizzle;

/// The tile options shared by `check` and `synth`.
#[derive(clap::Args)]
pub struct TileArgs {
    /// The tile shape, `ROWSxCOLS` (e.g. `64x64`).
    #[arg(long, value_name = "ROWSxCOLS")]
    pub tile: String,
    /// Element type (f16, bf16, f32, f64, u8, ...).
    #[arg(long, default_value = "f16")]
    pub elem: String,
    /// An access pattern (repeatable): row16, ldmatrix.x4[.b|.trans], stmatrix.x4, col.ld, col.st, row.ld,
    /// row.st, mma.acc; `NAME@COLS` walks the memory viewed as rows of COLS elements. (Kernel-specific accesses,
    /// e.g. the transpose's block stores, are their family's data: see `swz report`.)
    #[arg(long = "pattern", value_name = "NAME", required = true)]
    pub patterns: Vec<String>,
}

impl TileArgs {
    /// The unswizzled row-major tile and the parsed patterns.
    pub fn parse(&self) -> Result<(Smem, Vec<Pattern>), String> {
        let elem = crate::args::parse_elem(&self.elem)?;
        let (rows, cols) = crate::args::parse_tile_dims(&self.tile)?;
        let tile =
            Tile::new(rows, cols, elem, Order::RowMajor).map_err(|e| format!("--tile: {e}"))?;
        crate::args::fits_smem(&tile)?;
        let smem = Smem::new(
            tile,
            Layout::Swizzled {
                swizzle: SwizzleFn::Single(Swizzle::IDENTITY),
                unit: Unit::Bytes,
            },
        );
        let patterns = self
            .patterns
            .iter()
            .map(|p| {
                let pat: Pattern = p.parse().map_err(|e| format!("--pattern: {e}"))?;
                pat.check_on(&smem)
                    .map_err(|e| format!("--pattern {pat}: {e}"))?;
                Ok(pat)
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok((smem, patterns))
    }
}

#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 every pattern is conflict-free, 1 some pattern has a bank conflict (report \
                  printed, then one line on stderr naming the patterns), 2 bad input."
)]
pub struct Args {
    #[command(flatten)]
    tile: TileArgs,
    /// Swizzle on element offsets (`B,M,S`, `Sw<B,M,S>`, two layers `B,M,S+B,M,S`) or a byte mode (`SW32`, `SW64`,
    /// `SW128`, `NONE`); default: none.
    #[arg(
        long,
        value_name = "SPEC",
        conflicts_with = "pad",
        allow_hyphen_values = true
    )]
    swizzle: Option<String>,
    /// A second swizzle layer applied after `--swizzle` (element offsets, `B,M,S`).
    #[arg(
        long,
        value_name = "B,M,S",
        requires = "swizzle",
        allow_hyphen_values = true
    )]
    then: Option<String>,
    /// Pad each row by this many bytes instead of swizzling.
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true, value_parser = crate::args::parse_bytes)]
    pad: Option<u32>,
    /// Write the bank map of the worst instruction as SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

fn layout(args: &Args, elem: Elem) -> Result<Layout, String> {
    if let Some(pad) = args.pad {
        return Ok(Layout::Padded { pad_bytes: pad });
    }
    let Some(text) = &args.swizzle else {
        return Ok(Layout::Swizzled {
            swizzle: SwizzleFn::Single(Swizzle::IDENTITY),
            unit: Unit::Bytes,
        });
    };
    let (first, unit) = match crate::args::parse_swizzle("--swizzle", text)? {
        SwizzleSpelling::Layers(f) => (f, Unit::Elems(elem)),
        SwizzleSpelling::Mode(m) => (SwizzleFn::Single(m.swizzle()), Unit::Bytes),
    };
    let swizzle = match (&args.then, first) {
        (None, f) => f,
        (Some(t), SwizzleFn::Single(first)) => {
            let second: Swizzle =
                swizzle_core::spelling::only_layer(t).map_err(|e| format!("--then: {e}"))?;
            if unit == Unit::Bytes {
                return Err(
                    "--then: give --swizzle as B,M,S (element offsets) when adding a second layer"
                        .into(),
                );
            }
            SwizzleFn::Composed(Composed::new(first, second))
        }
        (Some(_), SwizzleFn::Composed(_)) => {
            return Err("--then: --swizzle already has two layers (B,M,S+B,M,S)".into())
        }
    };
    Ok(Layout::Swizzled { swizzle, unit })
}

pub fn run(args: Args) -> Result<crate::output::Verdict, String> {
    let (plain, patterns) = args.tile.parse()?;
    let smem = plain.with_layout(layout(&args, plain.tile().elem)?);
    smem.validate().map_err(|e| format!("--swizzle: {e}"))?;
    let smem = smem.fits_smem().map_err(|e| format!("--pad: {e}"))?;
    let mut worst: Option<(u64, String, swizzle_core::bank::Report)> = None;
    let mut conflicting: Vec<String> = Vec::new();
    outln!("{smem}");
    for p in &patterns {
        p.check_on(&smem)
            .map_err(|e| format!("--pattern {p}: {e}"))?;
        let r = p.report(&smem);
        out!("{r}");
        if r.conflicts() > 0 {
            conflicting.push(p.to_string());
        }
        if let Some((i, rep)) = &r.worst {
            outln!("  bank map of instruction {i}:");
            for line in map::ascii(rep).lines() {
                outln!("    {line}");
            }
            if worst.as_ref().is_none_or(|(c, ..)| r.conflicts() > *c) {
                worst = Some((
                    r.conflicts(),
                    format!("{p} on {smem}: instruction {i}"),
                    *rep,
                ));
            }
        }
    }
    if let (Some(path), Some((_, title, rep))) = (&args.svg, &worst) {
        crate::output::write_file("--svg", path, &map::svg(rep, title))?;
    }
    Ok(if conflicting.is_empty() {
        crate::output::Verdict::Clean
    } else {
        crate::output::Verdict::Conflicts(format!(
            "bank conflicts in {} of {} pattern(s): {}",
            conflicting.len(),
            patterns.len(),
            conflicting.join(", ")
        ))
    })
}
