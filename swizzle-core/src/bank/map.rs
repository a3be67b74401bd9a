//! The bank map: a picture of one instruction, per phase, of which lanes put which words in which bank.
//!
//! Columns are the 32 banks; row `k` of a phase holds each bank's `k`-th distinct word, labelled with the first
//! lane that touches it (lanes sharing a word broadcast and are not drawn twice). A phase costs as many wavefronts
//! as it has rows, so a conflict shows as a tall column: the lanes stacked in it are the ones that collide.

use super::{Report, BANKS, BANK_BYTES};
use core::fmt::Write;

/// One phase of the map: `cells[k][bank]` is the first lane touching the `k`-th distinct word of `bank`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseMap {
    /// The phase's first lane.
    pub first_lane: u32,
    /// Lanes in the phase.
    pub lanes: u32,
    /// Rows of the map: `cells[k][bank]`.
    pub cells: Vec<[Option<u32>; BANKS as usize]>,
}

/// The map of every phase of `report`'s instruction.
///
/// ```
/// use swizzle_core::bank::{map::bank_map, report, Op};
/// let a: [u32; 32] = core::array::from_fn(|l| 128 * (l as u32 % 2)); // two words of bank 0
/// let m = bank_map(&report(Op::LDS32, &a));
/// assert_eq!(m[0].cells.len(), 2);
/// assert_eq!((m[0].cells[0][0], m[0].cells[1][0]), (Some(0), Some(1)));
/// ```
pub fn bank_map(report: &Report) -> Vec<PhaseMap> {
    let words = report.op.words_per_lane();
    report
        .phases()
        .iter()
        .map(|p| {
            // (bank, word, first lane) for each distinct word, in lane order.
            let mut seen: Vec<(u32, u32, u32)> = Vec::new();
            for lane in p.first_lane..p.first_lane + p.lanes {
                let w0 = report.addrs[lane as usize] / BANK_BYTES;
                for k in 0..words {
                    let w = w0.wrapping_add(k);
                    if !seen.iter().any(|&(_, sw, _)| sw == w) {
                        seen.push((w % BANKS, w, lane));
                    }
                }
            }
            let mut cells: Vec<[Option<u32>; BANKS as usize]> = Vec::new();
            let mut depth = [0usize; BANKS as usize];
            for (bank, _, lane) in seen {
                let d = &mut depth[bank as usize];
                if cells.len() <= *d {
                    cells.push([None; BANKS as usize]);
                }
                cells[*d][bank as usize] = Some(lane);
                *d += 1;
            }
            PhaseMap {
                first_lane: p.first_lane,
                lanes: p.lanes,
                cells,
            }
        })
        .collect()
}

/// The map as text: a bank header, then per phase one row per wavefront (`.` = bank idle in that wavefront).
pub fn ascii(report: &Report) -> String {
    let mut s = String::new();
    let _ = write!(s, "bank ");
    for b in 0..BANKS {
        let _ = write!(s, "{b:>3}");
    }
    s.push('\n');
    for p in bank_map(report) {
        let _ = writeln!(
            s,
            "lanes {}..{}: {} wavefront{}",
            p.first_lane,
            p.first_lane + p.lanes,
            p.cells.len(),
            if p.cells.len() == 1 { "" } else { "s" }
        );
        for (k, row) in p.cells.iter().enumerate() {
            let _ = write!(s, "{:>4} ", format!("w{k}"));
            for c in row {
                match c {
                    Some(l) => {
                        let _ = write!(s, "{l:>3}");
                    }
                    None => s.push_str("  ."),
                }
            }
            s.push('\n');
        }
    }
    s
}

/// The map as a standalone SVG: one cell per (wavefront, bank), coloured and labelled by lane.
pub fn svg(report: &Report, title: &str) -> String {
    const W: u32 = 26;
    const H: u32 = 20;
    const LEFT: u32 = 110;
    let maps = bank_map(report);
    let rows: u32 = maps.iter().map(|p| p.cells.len() as u32 + 1).sum();
    let (width, height) = (LEFT + BANKS * W + 10, 50 + rows * H + 10);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r#"<text x="4" y="14" font-size="13">{}</text>"#,
        escape(title)
    );
    for b in 0..BANKS {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="40" text-anchor="middle">{b}</text>"#,
            LEFT + b * W + W / 2
        );
    }
    let _ = writeln!(s, r#"<text x="4" y="40">bank</text>"#);
    let mut y = 50;
    for p in &maps {
        let _ = writeln!(
            s,
            r#"<text x="4" y="{}">lanes {}..{}: {} wf</text>"#,
            y + 14,
            p.first_lane,
            p.first_lane + p.lanes,
            p.cells.len()
        );
        y += H;
        for row in &p.cells {
            for (b, c) in row.iter().enumerate() {
                let x = LEFT + b as u32 * W;
                match c {
                    Some(l) => {
                        let hue = (l * 360 / 32) % 360;
                        let _ = writeln!(
                            s,
                            r##"<rect x="{x}" y="{y}" width="{W}" height="{H}" fill="hsl({hue},70%,75%)" stroke="#555"/><text x="{}" y="{}" text-anchor="middle">{l}</text>"##,
                            x + W / 2,
                            y + 14
                        );
                    }
                    None => {
                        let _ = writeln!(
                            s,
                            r##"<rect x="{x}" y="{y}" width="{W}" height="{H}" fill="#f4f4f4" stroke="#ddd"/>"##
                        );
                    }
                }
            }
            y += H;
        }
    }
    s.push_str("</svg>\n");
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::{report, Op};

    #[test]
    fn rows_equal_wavefronts_per_phase() {
        let a: [u32; 32] = core::array::from_fn(|l| (l as u32 % 8) * 128 + (l as u32 / 8) * 16);
        let r = report(Op::LDMATRIX_X4, &a);
        let m = bank_map(&r);
        assert_eq!(m.len(), 4);
        for (p, pm) in r.phases().iter().zip(&m) {
            assert_eq!(pm.cells.len() as u32, p.wavefronts);
        }
        let text = ascii(&r);
        assert!(text.contains("lanes 0..8: 8 wavefronts"), "{text}");
        assert!(svg(&r, "x<y").contains("x&lt;y"));
    }
}
