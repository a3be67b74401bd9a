use swizzle_core::raster;

#[raster(order = group_m, group_m = -8)]
struct GemmKernel;

fn main() {}
