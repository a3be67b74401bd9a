use swizzle_core::raster;

#[raster(tile = 4, width = 2)]
struct GemmKernel;

fn main() {}
