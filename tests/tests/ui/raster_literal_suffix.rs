use swizzle_core::raster;

#[raster(order = strip, tile = 4i64)]
struct GemmKernel;

fn main() {}
