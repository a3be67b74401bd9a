use swizzle_core::raster;

#[raster(tile = 4)]
pub fn gemm_kernel() {}

fn main() {}
