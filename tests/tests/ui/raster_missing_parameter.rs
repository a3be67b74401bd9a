use swizzle_core::raster;

#[raster(order = strip)]
struct GemmKernel;

fn main() {}
