use swizzle_core::raster;

#[raster(tile = 4)]
#[raster(order = morton)]
struct GemmKernel;

fn main() {}
