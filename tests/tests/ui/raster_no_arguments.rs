use swizzle_core::raster;

#[raster]
struct GemmKernel;

fn main() {}
