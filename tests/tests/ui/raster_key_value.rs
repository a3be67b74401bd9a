use swizzle_core::raster;

#[raster = "strip"]
struct GemmKernel;

fn main() {
    let _ = GemmKernel::tile_of(0, swizzle_core::raster::Grid::new(4, 4));
}
