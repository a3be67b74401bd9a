use swizzle_core::raster;

#[raster(tile = 4)]
struct GemmKernel;

impl GemmKernel {
    const RASTER: u32 = 1;
}

fn main() {}
