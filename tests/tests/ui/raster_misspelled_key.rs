// A misspelled parameter key is the only message: not also "#[raster] needs an order".
use swizzle_core::raster;

#[raster(tiles = 4)]
struct GemmKernel;

fn main() {
    let _ = GemmKernel::tile_of(0, swizzle_core::raster::Grid::new(2, 2));
}
