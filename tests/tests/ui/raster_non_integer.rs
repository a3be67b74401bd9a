use swizzle_core::raster;

#[raster(tile = "4")]
struct GemmKernel;

fn main() {}
