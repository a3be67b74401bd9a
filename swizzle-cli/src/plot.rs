//! The two SVG pictures of the threadblock-swizzling article's study, written by hand (no plotting dependency):
//! - [`raster_svg`]: the tile grid, each tile coloured by its launch position (a gradient from the first block to
//!   the last) and labelled with its bid, the first wave (`sms x resident` blocks) outlined;
//! - [`bars_svg`]: predicted DRAM bytes per order, one horizontal bar each, best first, with the compulsory bytes
//!   (A and B read once) as a dashed line.

use std::fmt::Write as _;
use swizzle_core::raster::{Grid, Raster};

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A perceptually ordered gradient (dark blue -> teal -> yellow, viridis-like) at `t in [0, 1]`.
fn gradient(t: f64) -> String {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let x = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let c = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    format!("#{:02x}{:02x}{:02x}", c(a.0, b.0), c(a.1, b.1), c(a.2, b.2))
}

/// The tile grid under `raster`, coloured by launch order, with the first `wave` active blocks outlined.
/// Tiles are labelled with their launch position when the grid is small enough to read them (<= 32 wide).
pub fn raster_svg(raster: Raster, grid: Grid, wave: u64) -> String {
    let cell: u32 = if grid.x.max(grid.y) <= 16 {
        36
    } else if grid.x.max(grid.y) <= 32 {
        24
    } else {
        (768 / grid.x.max(grid.y)).max(2)
    };
    let labels = cell >= 24;
    let (left, top) = (40u32, 74u32);
    let (w, h) = (
        (left + grid.x * cell + 20).max(440),
        top + grid.y * cell + 44,
    );
    let active = grid.blocks();
    // Launch position (among active blocks) of every tile.
    let mut pos = vec![0u64; active as usize];
    let mut k = 0u64;
    for bid in 0..raster.launch_grid(grid).blocks() as u32 {
        if let Some((x, y)) = raster.tile_of(bid, grid) {
            pos[(y as u64 * grid.x as u64 + x as u64) as usize] = k;
            k += 1;
        }
    }
    let title = format!("{} on a {grid} tile grid", xml(&raster.to_string()));
    let mut s = svg_start((w, h, 12), (left, 20, 15), &title);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="40" fill="dimgray">colour: launch order (dark first, yellow last)</text>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="58" fill="crimson">outline: the first wave ({} blocks)</text>"#,
        wave.min(active)
    );
    for y in 0..grid.y {
        for x in 0..grid.x {
            let p = pos[(y as u64 * grid.x as u64 + x as u64) as usize];
            let t = if active > 1 {
                p as f64 / (active - 1) as f64
            } else {
                0.0
            };
            let (px, py) = (left + x * cell, top + y * cell);
            let _ = writeln!(
                s,
                r#"<rect x="{px}" y="{py}" width="{cell}" height="{cell}" fill="{}" stroke="white" stroke-width="{}"/>"#,
                gradient(t),
                if cell >= 8 { 1 } else { 0 }
            );
            if labels {
                let ink = if t > 0.6 { "black" } else { "white" };
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="middle" fill="{ink}" font-size="{}">{p}</text>"#,
                    px + cell / 2,
                    py + cell / 2 + 4,
                    if cell >= 36 { 12 } else { 9 }
                );
            }
        }
    }
    // The first wave's outline: one edge segment wherever a first-wave tile borders a later one or the grid edge.
    let first = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < grid.x as i64
            && y < grid.y as i64
            && pos[(y as u64 * grid.x as u64 + x as u64) as usize] < wave
    };
    let _ = write!(
        s,
        r#"<path fill="none" stroke="crimson" stroke-width="3" stroke-linecap="square" d=""#
    );
    for y in 0..grid.y as i64 {
        for x in 0..grid.x as i64 {
            if !first(x, y) {
                continue;
            }
            let (x0, y0) = (left as i64 + x * cell as i64, top as i64 + y * cell as i64);
            let (x1, y1) = (x0 + cell as i64, y0 + cell as i64);
            if !first(x, y - 1) {
                let _ = write!(s, "M{x0} {y0}H{x1}");
            }
            if !first(x, y + 1) {
                let _ = write!(s, "M{x0} {y1}H{x1}");
            }
            if !first(x - 1, y) {
                let _ = write!(s, "M{x0} {y0}V{y1}");
            }
            if !first(x + 1, y) {
                let _ = write!(s, "M{x1} {y0}V{y1}");
            }
        }
    }
    let _ = writeln!(s, r#""/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="{}" fill="dimgray">x: column tiles (N) &#8594;   y: row tiles (M) &#8595;</text>"#,
        top + grid.y * cell + 28
    );
    s.push_str("</svg>\n");
    s
}

/// The opening of a picture: the `<svg>` element (`w` x `h`, sans-serif at `font` px) on a white ground, then the
/// bold title `title` (escaped already) at (`x`, `y`) in `size` px.
fn svg_start((w, h, font): (u32, u32, u32), (x, y, size): (u32, u32, u32), title: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="{font}">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{x}" y="{y}" font-size="{size}" font-weight="bold">{title}</text>"#
    );
    s
}

/// One bar of [`bars_svg`].
pub struct Bar {
    pub label: String,
    pub bytes: u64,
    pub hit_rate: f64,
}

/// Predicted DRAM bytes per order as horizontal bars (in the order given), with `compulsory` dashed.
pub fn bars_svg(title: &str, subtitle: &str, bars: &[Bar], compulsory: u64) -> String {
    let (label_w, bar_w, row) = (190u32, 520u32, 26u32);
    let lines: Vec<&str> = subtitle.lines().collect();
    let (left, top) = (16u32, 48 + 18 * lines.len() as u32);
    let w = left + label_w + bar_w + 190;
    let h = top + row * bars.len() as u32 + 48;
    let max = bars
        .iter()
        .map(|b| b.bytes)
        .max()
        .unwrap_or(1)
        .max(compulsory)
        .max(1) as f64;
    let scale = |v: u64| (v as f64 / max * bar_w as f64).round() as u32;
    let x0 = left + label_w;
    let mut s = svg_start((w, h, 13), (left, 22, 16), &xml(title));
    for (i, l) in lines.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{left}" y="{}" fill="dimgray">{}</text>"#,
            44 + 18 * i as u32,
            xml(l)
        );
    }
    for (i, b) in bars.iter().enumerate() {
        let y = top + i as u32 * row;
        let t = b.bytes as f64 / max;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            x0 - 8,
            y + 17,
            xml(&b.label)
        );
        let _ = writeln!(
            s,
            r#"<rect x="{x0}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            y + 4,
            scale(b.bytes).max(1),
            row - 8,
            gradient(0.15 + 0.7 * t)
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{:.3} GB   hit {:.1}%</text>"#,
            x0 + scale(b.bytes).max(1) + 6,
            y + 17,
            b.bytes as f64 / 1e9,
            100.0 * b.hit_rate
        );
    }
    let cx = x0 + scale(compulsory);
    let bottom = top + row * bars.len() as u32;
    let _ = writeln!(
        s,
        r#"<line x1="{cx}" y1="{}" x2="{cx}" y2="{bottom}" stroke="crimson" stroke-width="2" stroke-dasharray="5,4"/>"#,
        top - 4
    );
    let _ = writeln!(
        s,
        r#"<text x="{x0}" y="{}" fill="crimson">dashed: compulsory {:.3} GB (A and B read once)</text>"#,
        bottom + 22,
        compulsory as f64 / 1e9
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raster_picture_labels_every_tile_and_outlines_the_first_wave() {
        let svg = raster_svg(Raster::Strip { tile: 4 }, Grid::new(8, 8), 6);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        // 64 tiles, each labelled with its launch position 0..63 exactly once.
        for p in 0..64 {
            assert_eq!(svg.matches(&format!(">{p}</text>")).count(), 1, "label {p}");
        }
        // Strip 4, first wave of 6: tiles (0..4, 0) and (0..2, 1): 4 + 2 top edges... the outline exists.
        assert!(svg.contains("stroke=\"crimson\""));
        assert!(svg.contains("the first wave (6 blocks)"));
    }

    #[test]
    fn bars_scale_to_the_largest() {
        let bars = [
            Bar {
                label: "a".into(),
                bytes: 100,
                hit_rate: 0.5,
            },
            Bar {
                label: "b<".into(),
                bytes: 50,
                hit_rate: 0.75,
            },
        ];
        let svg = bars_svg("t", "s", &bars, 10);
        assert!(svg.contains(r#"width="520""#));
        assert!(svg.contains(r#"width="260""#));
        assert!(svg.contains("b&lt;"));
        assert_eq!(gradient(0.0), "#440154");
        assert_eq!(gradient(1.0), "#fde725");
    }
}
