//! The strip raster against the threadblock-swizzling article's `get_swizzle_idx` listing as published, and the diagonal raster against
//! the transpose article's kernels.
//!
//! The published listing ends with `ret.y = strip_flat_idx / gridDim.y;`. `strip_flat_idx` is row-major over
//! `gridDim.x` columns, so the row is `strip_flat_idx / gridDim.x`. On square grids the two are the same and the
//! listing is right; on a non-square grid it sends two blocks to one tile (and leaves tiles uncomputed, or computes
//! rows past the grid). `Raster::Strip` is the fixed algorithm.
mod common;
use common::swizzle_idx;
use std::collections::HashSet;
use swizzle_core::raster::{Grid, Raster};

/// The threadblock-swizzling article's `get_swizzle_idx`, exactly as published (the bug included). `block_idx` is the row-major launch bid.
fn article_listing(block_idx: u32, grid_x: u32, grid_y: u32, tile_size: u32) -> (u32, u32) {
    let (x, y) = swizzle_idx::strip_published(
        block_idx as u64,
        grid_x as u64,
        grid_y as u64,
        tile_size as u64,
    );
    (x as u32, y as u32)
}

fn is_bijection(tiles: &[(u32, u32)], g: Grid) -> bool {
    let distinct: HashSet<_> = tiles.iter().collect();
    distinct.len() == tiles.len() && tiles.iter().all(|&(x, y)| x < g.x && y < g.y)
}

#[test]
fn article_listing_matches_on_square_grids() {
    for side in 1..=32 {
        let g = Grid::new(side, side);
        for tile in 1..=16 {
            let r = Raster::Strip { tile };
            for bid in 0..side * side {
                assert_eq!(
                    r.tile_of(bid, g),
                    Some(article_listing(bid, side, side, tile)),
                    "{r} on {g} bid {bid}"
                );
            }
        }
    }
}

#[test]
fn article_listing_is_not_a_bijection_on_non_square_grids() {
    // The article's own example shape, 8 x 8 tiles with tile 4, is square and fine; make it 8 x 4.
    let g = Grid::new(8, 4);
    let listed: Vec<_> = (0..32).map(|bid| article_listing(bid, 8, 4, 4)).collect();
    assert!(!is_bijection(&listed, g));
    // bid 4 is strip 0, row 1: flat index 8 on an 8-wide grid is row 1, but the listing says 8 / 4 = 2.
    assert_eq!(article_listing(4, 8, 4, 4), (0, 2));
    assert_eq!(Raster::Strip { tile: 4 }.tile_of(4, g), Some((0, 1)));

    // On every non-square grid up to 32x32, ours is a bijection and the listing is not.
    let mut broken = 0;
    for gy in 1..=32 {
        for gx in 1..=32 {
            if gx == gy {
                continue;
            }
            let g = Grid::new(gx, gy);
            for tile in 1..=16 {
                let listed: Vec<_> = (0..gx * gy)
                    .map(|bid| article_listing(bid, gx, gy, tile))
                    .collect();
                let ours: Vec<_> = (0..gx * gy)
                    .map(|bid| Raster::Strip { tile }.tile_of(bid, g).unwrap())
                    .collect();
                assert!(is_bijection(&ours, g), "strip(tile={tile}) on {g}");
                if !is_bijection(&listed, g) {
                    broken += 1;
                }
            }
        }
    }
    // The listing fails on every one of them: every non-square grid up to 32x32, every tile 1..=16.
    assert_eq!(broken, 32 * 31 * 16);
}

#[test]
fn diagonal_is_the_transpose_articles_and_a_bijection_on_any_grid() {
    // The transpose article: `block_y = blockIdx.y; block_x = (blockIdx.x + blockIdx.y) % gridDim.x` (its kernels write
    // `% gridDim.y`, which equals it on the square grids it runs on).
    for gy in 1..=32u32 {
        for gx in 1..=32u32 {
            let g = Grid::new(gx, gy);
            let ours: Vec<_> = (0..gx * gy)
                .map(|bid| Raster::Diagonal.tile_of(bid, g).unwrap())
                .collect();
            assert!(is_bijection(&ours, g), "diagonal on {g}");
            for (bid, &t) in ours.iter().enumerate() {
                let (bx, by) = (bid as u32 % gx, bid as u32 / gx);
                assert_eq!(t, ((bx + by) % gx, by));
                if gx == gy {
                    assert_eq!(
                        t,
                        ((bx + by) % gy, by),
                        "the kernels' `% gridDim.y` on a square grid"
                    );
                }
            }
        }
    }
    // The transpose paper's variant (`y = bx, x = (bx + by) % gx`) is not a bijection on a wide grid.
    let paper: HashSet<_> = (0..8u32)
        .map(|bid| (bid % 4, bid / 4))
        .map(|(bx, by)| ((bx + by) % 4, bx))
        .collect();
    assert!(paper.iter().any(|&(_, y)| y >= 2), "it leaves the 4x2 grid");
}
