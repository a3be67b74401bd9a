use swizzle_core::raster;

#[raster(strip)]
struct GemmKernel;

fn main() {}
