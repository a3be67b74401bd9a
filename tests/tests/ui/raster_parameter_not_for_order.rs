use swizzle_core::raster;

#[raster(order = morton, tile = 4)]
struct GemmKernel;

fn main() {}
