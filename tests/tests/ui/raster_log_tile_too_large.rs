use swizzle_core::raster;

#[raster(order = cutlass, log_tile = 17)]
struct GemmKernel;

fn main() {}
