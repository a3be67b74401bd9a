// `order = group-m` (the CLI's spelling) is understood; what is missing is its parameter, and that is the message.
use swizzle_core::raster;

#[raster(order = group-m)]
struct GemmKernel;

fn main() {}
