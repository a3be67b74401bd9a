use swizzle_core::raster;
use swizzle_core::raster::Grid;

#[raster(tile = 0)]
struct GemmKernel;

// Code that uses the kernel's order gets no error of its own: the one error is at `0`.
const _: () = assert!(matches!(GemmKernel::tile_of(1, Grid::new(4, 4)), Some((0, 1))));

fn main() {}
