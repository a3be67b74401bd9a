//! The threadblock-swizzling article's `get_swizzle_idx`, transcribed line by line: the one reference the strip-raster tests share
//! (`tests/tests/raster_*.rs`, and `swizzle-cli/tests/cli_raster.rs` through `#[path]`).
//!
//! The listing ends with `ret.x = strip_flat_idx % gridDim.x; ret.y = strip_flat_idx / gridDim.y;`. The row of a
//! row-major index over `gridDim.x` columns is `strip_flat_idx / gridDim.x`: the published `/ gridDim.y` is the
//! article's bug. Callers finish the last line themselves, as published or fixed.

/// `strip_flat_idx` of launch block `block_idx` (row-major launch order) on a `grid_x` x `grid_y` grid.
pub fn strip_flat_idx(block_idx: u64, grid_x: u64, grid_y: u64, tile_size: u64) -> u64 {
    let total_cta_in_a_strip = tile_size * grid_y;
    let number_of_strips = grid_x / tile_size;
    let residual_strip_width = grid_x % tile_size;
    let strip_id = block_idx / total_cta_in_a_strip;
    let cta_id_in_strip = block_idx % total_cta_in_a_strip;
    let use_sz = if block_idx < total_cta_in_a_strip * number_of_strips {
        tile_size
    } else {
        residual_strip_width
    };
    let strip_id_x = cta_id_in_strip % use_sz;
    let strip_id_y = cta_id_in_strip / use_sz;
    strip_id * tile_size + strip_id_y * grid_x + strip_id_x
}

/// The listing with its last line fixed: `(flat % gridDim.x, flat / gridDim.x)`.
#[allow(dead_code)] // not every test file that includes this module uses both forms
pub fn strip_fixed(block_idx: u64, grid_x: u64, grid_y: u64, tile_size: u64) -> (u64, u64) {
    let flat = strip_flat_idx(block_idx, grid_x, grid_y, tile_size);
    (flat % grid_x, flat / grid_x)
}

/// The listing exactly as published, bug included: `(flat % gridDim.x, flat / gridDim.y)`.
#[allow(dead_code)]
pub fn strip_published(block_idx: u64, grid_x: u64, grid_y: u64, tile_size: u64) -> (u64, u64) {
    let flat = strip_flat_idx(block_idx, grid_x, grid_y, tile_size);
    (flat % grid_x, flat / grid_y) // <- the published line: should be `/ grid_x`
}
