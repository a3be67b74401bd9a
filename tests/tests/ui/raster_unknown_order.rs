use swizzle_core::raster;

#[raster(order = zigzag, tile = 4)]
struct GemmKernel;

fn main() {}
