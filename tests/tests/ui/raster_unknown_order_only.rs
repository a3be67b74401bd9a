// An unknown order is the only message: not also "#[raster] needs an order", and the descriptor still has its
// generated items, so using them adds nothing.
use swizzle_core::raster;

#[raster(order = zigzag)]
struct GemmKernel;

fn main() {
    let _ = GemmKernel::RASTER;
}
