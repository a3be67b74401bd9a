//! `swz show --swizzle B,M,S --tile ROWSxCOLS --elem f16 [--order row|col] [--svg FILE] [--color chunk|bank]`
//!
//! Prints the swizzled tile as a grid in the manner of CuTe's `print_layout`: rows are the tile's logical rows,
//! columns its logical columns, and each cell holds the **element offset in shared memory where logical element
//! (row, col) is stored** (the layout function, as CuTe prints it). That answers the usual question, "where does
//! this row / this column of my tile land?", and a column read then shows at a glance whether it spreads across
//! banks. `--svg FILE` draws the same grid with each cell coloured by the 16-byte chunk (`byte offset / 16 mod 8`,
//! the unit the byte modes move) or by the 4-byte bank (`byte offset / 4 mod 32`) of its stored address.
//!
//! `B,M,S` is on element offsets of `--elem`; a byte mode name (`SW128`, ...) is converted to `--elem` units.
use std::fmt::Write as _;
use std::path::PathBuf;
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::tile::{Order, Tile};
use swizzle_core::units::Unit;
use swizzle_core::Smem;

#[derive(clap::Args)]
pub struct Args {
    /// The swizzle on element offsets (`B,M,S`, `Sw<B,M,S>`, two layers `B,M,S+B,M,S`), or a byte mode (`SW32`,
    /// `SW64`, `SW128`, `NONE`) to convert.
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    swizzle: String,
    /// The tile shape, `ROWSxCOLS` (e.g. `8x64`).
    #[arg(long, value_name = "ROWSxCOLS")]
    tile: String,
    /// Element type (f16, bf16, f32, f64, u8, ...).
    #[arg(long, default_value = "f16")]
    elem: String,
    /// Which index is contiguous before swizzling: `row` (row-major) or `col` (column-major).
    #[arg(long, default_value = "row")]
    order: String,
    /// Also write an SVG picture to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// SVG cell colour: `chunk` (16-byte chunk) or `bank` (4-byte bank).
    #[arg(long, default_value = "chunk")]
    color: String,
}

/// What the SVG colours a cell by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// `byte offset / 16 mod 8`: the 16-byte chunk within a 128-byte line.
    Chunk,
    /// `byte offset / 4 mod 32`: the shared-memory bank of the first byte.
    Bank,
}

impl Color {
    fn parse(s: &str) -> Result<Color, String> {
        match s {
            "chunk" => Ok(Color::Chunk),
            "bank" => Ok(Color::Bank),
            _ => Err(format!("--color: expected chunk or bank, got {s:?}")),
        }
    }

    /// The class of a cell stored at `byte` and how many classes there are.
    fn class(self, byte: u32) -> (u32, u32) {
        match self {
            Color::Chunk => ((byte / 16) % 8, 8),
            Color::Bank => ((byte / 4) % 32, 32),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Color::Chunk => "colour = 16-byte chunk of the stored address (byte / 16 mod 8)",
            Color::Bank => "colour = bank of the stored address (byte / 4 mod 32)",
        }
    }
}

pub fn run(args: Args) -> Result<(), String> {
    let st = build(&args)?;
    let color = Color::parse(&args.color)?;
    out!("{}", grid(&st));
    if let Some(path) = &args.svg {
        crate::output::write_file("--svg", path, &svg(&st, color))?;
    }
    Ok(())
}

/// The layout to draw: swizzle-core's one layout type, the swizzle on element offsets (a byte mode converted
/// exactly to the element type).
fn build(args: &Args) -> Result<Smem, String> {
    let elem = crate::args::parse_elem(&args.elem)?;
    let (rows, cols) = crate::args::parse_tile_dims(&args.tile)?;
    let order = match args.order.as_str() {
        "row" => Order::RowMajor,
        "col" => Order::ColMajor,
        o => return Err(format!("--order: expected row or col, got {o:?}")),
    };
    let tile = Tile::new(rows, cols, elem, order).map_err(|e| format!("--tile: {e}"))?;
    crate::args::fits_smem(&tile)?;
    let sw = match crate::args::parse_swizzle("--swizzle", &args.swizzle)? {
        SwizzleSpelling::Layers(f) => f,
        SwizzleSpelling::Mode(m) => swizzle_core::SwizzleFn::Single(
            m.swizzle_in()
                .to_unit(Unit::Elems(elem))
                .map_err(|e| format!("--swizzle: {e}"))?
                .swizzle,
        ),
    };
    let smem = Smem::plain(tile).with_swizzle_fn(sw);
    smem.validate().map_err(|e| format!("--swizzle: {e}"))?;
    Ok(smem)
}

/// One header line, then a `print_layout`-style grid of stored element offsets.
///
/// ```text
/// # Sw<3,3,3> on f16 | tile 8x64 f16 row-major | cell (row, col) = element offset in smem where it is stored
///        0    1 ...
///     +-----------
///  0  |    0    1 ...
/// ```
pub fn grid(st: &Smem) -> String {
    let tile = st.tile();
    let width = (tile.len().saturating_sub(1))
        .to_string()
        .len()
        .max(tile.cols.saturating_sub(1).to_string().len());
    let rw = (tile.rows - 1).to_string().len();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {} on {} | tile {} | cell (row, col) = element offset in smem where it is stored",
        st.swizzle(),
        Unit::Elems(tile.elem),
        tile
    );
    let _ = write!(s, "{:rw$}   ", "");
    for c in 0..tile.cols {
        let _ = write!(s, " {c:>width$}");
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:rw$}  +{}",
        "",
        "-".repeat((width + 1) * tile.cols as usize)
    );
    for r in 0..tile.rows {
        let _ = write!(s, "{r:>rw$}  |");
        for c in 0..tile.cols {
            let _ = write!(s, " {:>width$}", st.offset(r, c));
        }
        let _ = writeln!(s);
    }
    s
}

/// Escape text for SVG (`Sw<3,3,3>` has angle brackets).
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A palette of `n` distinguishable fills: evenly spaced hues, alternating lightness so neighbours differ.
fn fill(class: u32, n: u32) -> String {
    let hue = (class * 360 / n + (class % 2) * 180 / n) % 360;
    let light = if class.is_multiple_of(2) { 72 } else { 58 };
    format!("hsl({hue},70%,{light}%)")
}

/// The grid as an SVG: title with the spec, column and row labels, coloured cells with their stored offset (and a
/// hover tooltip with row, col, byte address, chunk and bank), and a legend of the colour classes.
pub fn svg(st: &Smem, color: Color) -> String {
    let tile = st.tile();
    let digits = (tile.len().saturating_sub(1)).to_string().len() as u32;
    let cw = (digits * 8 + 10).max(26);
    let ch = 22;
    let (left, top) = (44, 64);
    let (_, classes) = color.class(0);
    let legend_top = top + tile.rows * ch + 24;
    let legend_cols = classes.min(16);
    let legend_rows = classes.div_ceil(legend_cols);
    let width = (left + tile.cols * cw + 20)
        .max(left + legend_cols * 44 + 20)
        .max(560);
    let height = legend_top + 20 + legend_rows * 26 + 10;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="22" font-size="15" font-weight="bold">{} on {} — tile {}</text>"#,
        xml(&st.swizzle().to_string()),
        tile.elem,
        tile
    );
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="40">cell (row, col) = element offset in smem where it is stored; {}</text>"#,
        color.describe()
    );
    for c in 0..tile.cols {
        let x = left + c * cw + cw / 2;
        let _ = writeln!(
            s,
            r#"<text x="{x}" y="{}" text-anchor="middle" fill="dimgray">{c}</text>"#,
            top - 6
        );
    }
    for r in 0..tile.rows {
        let y = top + r * ch + ch / 2 + 4;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{y}" text-anchor="end" fill="dimgray">{r}</text>"#,
            left - 6
        );
        for c in 0..tile.cols {
            let off = st.offset(r, c);
            let byte = st.byte_addr(r, c);
            let (class, n) = color.class(byte);
            let (x, yy) = (left + c * cw, top + r * ch);
            let _ = writeln!(
                s,
                r#"<g><title>({r}, {c}) &#8594; elem {off}, byte {byte}, chunk {}, bank {}</title><rect x="{x}" y="{yy}" width="{cw}" height="{ch}" fill="{}" stroke="white"/><text x="{}" y="{y}" text-anchor="middle">{off}</text></g>"#,
                (byte / 16) % 8,
                (byte / 4) % 32,
                fill(class, n),
                x + cw / 2
            );
        }
    }
    let label = match color {
        Color::Chunk => "chunk",
        Color::Bank => "bank",
    };
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="{}" font-weight="bold">legend: {label}</text>"#,
        legend_top + 4
    );
    for k in 0..classes {
        let (x, y) = (
            left + (k % legend_cols) * 44,
            legend_top + 12 + (k / legend_cols) * 26,
        );
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="40" height="20" fill="{}"/><text x="{}" y="{}" text-anchor="middle">{k}</text>"#,
            fill(k, classes),
            x + 20,
            y + 14
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
