use swizzle_core::raster;
use swizzle_core::raster::Grid;

#[raster(order = morton)]
struct TransposeKernel;

// Grid rules are checked where the grid is known: here, in const evaluation.
const BID: u32 = TransposeKernel::bid_of(0, 0, Grid::new(6, 4));

fn main() {
    let _ = BID;
}
