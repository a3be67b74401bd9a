use swizzle_core::raster;

#[raster(tile = 0)]
struct GemmKernel;

fn main() {}
