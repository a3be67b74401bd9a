use swizzle_core::raster;

#[raster(tile = 4, panel = 2)]
struct GemmKernel;

fn main() {}
