//! `swz raster` through the real binary: every order is a bijection on non-square grids (read back from the
//! printed lines), strip follows the article's algorithm (with its `/ gridDim.x` fix), errors are one line and exit 2.
// The article's listing the workspace tests transcribe once, shared rather than copied.
mod common;
#[path = "../../tests/tests/common/swizzle_idx.rs"]
mod swizzle_idx;
use common::{accepted, swz};
use std::collections::HashSet;

/// The printed lines as `(bid, Some((x, y)))`, or `None` for an idle `bid - -` block.
fn raster(args: &[&str]) -> Vec<(u32, Option<(u32, u32)>)> {
    let out = swz(&[&["raster"], args].concat());
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 3, "line {l:?}");
            let tile = if f[1] == "-" {
                None
            } else {
                Some((f[1].parse().unwrap(), f[2].parse().unwrap()))
            };
            (f[0].parse().unwrap(), tile)
        })
        .collect()
}

/// Bids are 0, 1, 2, ... and the active ones cover the `gx x gy` grid exactly once.
fn assert_bijection(lines: &[(u32, Option<(u32, u32)>)], gx: u32, gy: u32, what: &str) {
    for (i, (bid, _)) in lines.iter().enumerate() {
        assert_eq!(
            *bid, i as u32,
            "{what}: bids must be printed in launch order"
        );
    }
    let tiles: Vec<(u32, u32)> = lines.iter().filter_map(|(_, t)| *t).collect();
    let distinct: HashSet<_> = tiles.iter().collect();
    assert_eq!(tiles.len(), (gx * gy) as usize, "{what}: active blocks");
    assert_eq!(distinct.len(), tiles.len(), "{what}: a tile computed twice");
    assert!(
        tiles.iter().all(|&(x, y)| x < gx && y < gy),
        "{what}: a tile outside the grid"
    );
}

#[test]
fn every_order_is_a_bijection_on_non_square_grids() {
    for (gx, gy) in [(7, 3), (3, 7), (12, 5), (1, 9), (16, 4)] {
        let grid = format!("{gx}x{gy}");
        for order in [
            "identity",
            "diagonal",
            "strip:1",
            "strip:4",
            "strip:5",
            "group-m:2",
            "group-m:3",
            "serpentine:2",
        ]
        .into_iter()
        .chain([
            "cutlass:0",
            "cutlass:1",
            "cutlass:2",
            "cutlass:3",
            "serpentine:3",
        ]) {
            let lines = raster(&["--order", order, "--grid", &grid]);
            assert_bijection(&lines, gx, gy, &format!("{order} on {grid}"));
        }
    }
    for (gx, gy) in [(16, 4), (2, 8), (1, 1)] {
        let grid = format!("{gx}x{gy}");
        assert_bijection(
            &raster(&["--order", "morton", "--grid", &grid]),
            gx,
            gy,
            &format!("morton on {grid}"),
        );
    }
}

/// The threadblock-swizzling article's `get_swizzle_idx` with the last line as `/ gridDim.x` (the published `/ gridDim.y` is a bug).
fn article_strip(block_idx: u32, gx: u32, gy: u32, tile_size: u32) -> (u32, u32) {
    let (x, y) = swizzle_idx::strip_fixed(block_idx as u64, gx as u64, gy as u64, tile_size as u64);
    (x as u32, y as u32)
}

#[test]
fn strip_matches_the_articles_algorithm() {
    for (gx, gy, tile) in [(8, 8, 4), (10, 3, 4), (3, 10, 2), (13, 6, 5), (9, 2, 3)] {
        let lines = raster(&[
            "--order",
            "strip",
            "--tile",
            &tile.to_string(),
            "--grid",
            &format!("{gx}x{gy}"),
        ]);
        assert_eq!(lines.len(), (gx * gy) as usize);
        for (bid, t) in lines {
            assert_eq!(
                t,
                Some(article_strip(bid, gx, gy, tile)),
                "strip:{tile} on {gx}x{gy}, bid {bid}"
            );
        }
    }
}

#[test]
fn cutlass_prints_idle_padding_blocks() {
    // 2 x 3 tiles, log_tile 1: launch 4 x 2; bids 5 and 7 would compute row 3.
    let lines = raster(&["--order", "cutlass", "--log-tile", "1", "--grid", "2x3"]);
    let text: Vec<String> = lines
        .iter()
        .map(|(b, t)| t.map_or(format!("{b} - -"), |(x, y)| format!("{b} {x} {y}")))
        .collect();
    assert_eq!(
        text,
        ["0 0 0", "1 0 1", "2 1 0", "3 1 1", "4 0 2", "5 - -", "6 1 2", "7 - -"]
    );
}

#[test]
fn parameter_spellings_agree() {
    let a = raster(&["--order", "group-m", "--group", "3", "--grid", "5x7"]);
    assert_eq!(a, raster(&["--order", "group-m:3", "--grid", "5x7"]));
    assert_eq!(a, raster(&["--order", "group-m(group=3)", "--grid", "5x7"]));
    assert_eq!(
        a,
        raster(&["--order", "group_m", "--group_m", "3", "--grid", "5x7"])
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["--order", "zigzag", "--grid", "4x4"],
            "unknown raster order \"zigzag\"",
        ),
        (&["--order", "strip", "--grid", "4x4"], "needs a parameter"),
        (
            &["--order", "strip", "--tile", "0", "--grid", "4x4"],
            "tile must be >= 1",
        ),
        (
            &["--order", "morton", "--tile", "2", "--grid", "4x4"],
            "takes no parameter",
        ),
        (&["--order", "morton", "--grid", "6x4"], "powers of two"),
        (
            &["--order", "identity", "--grid", "4by4"],
            "expected a grid as GXxGY",
        ),
        (
            &["--order", "strip:2", "--tile", "2", "--grid", "4x4"],
            "already has a parameter",
        ),
    ];
    for (args, needle) in cases {
        common::refused(&[&["raster"], args].concat(), needle);
    }
}

/// Raster parameters are spelled one way in the docs (`group-m`, `--group`, as `Display` prints
/// `group-m(group=8)`), and the macro's spellings (`group_m`, `log_tile`) are accepted too.
#[test]
fn macro_and_cli_spellings_are_both_accepted() {
    let documented = accepted("raster --order group-m --group 2 --grid 3x4");
    for args in [
        "raster --order group_m --group 2 --grid 3x4",
        "raster --order group-m --group-m 2 --grid 3x4",
        "raster --order group_m --group_m 2 --grid 3x4",
        "raster --order group-m:2 --grid 3x4",
        "raster --order group-m(group=2) --grid 3x4",
    ] {
        assert_eq!(accepted(args), documented, "{args:?}");
    }
    assert_eq!(
        accepted("raster --order cutlass --log_tile 1 --grid 3x4"),
        accepted("raster --order cutlass --log-tile 1 --grid 3x4")
    );
}
