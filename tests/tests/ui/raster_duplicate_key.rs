use swizzle_core::raster;

#[raster(tile = 4, tile = 8)]
struct GemmKernel;

fn main() {}
