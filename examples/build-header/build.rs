//! Writes `OUT_DIR/include/swz.h` with this crate's specs, and exposes the directory to dependents
//! (`DEP_SWZ_EXAMPLE_INCLUDE`) and to the crate itself (`src/lib.rs` includes the text for NVRTC).
use swizzle_core::cuda::{write_header, Header};
use swizzle_core::{raster::Raster, Swizzle};

fn main() {
    let include =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
            .join("include");
    // The specs: a 64x64 f16 tile's swizzle (the 128-byte TMA mode on f16 offsets) and the block order.
    let header = Header::new()
        .swizzle("SmemA", Swizzle::new(3, 3, 3))
        .raster("GemmOrder", Raster::GroupM { group: 8 });
    write_header(include.join("swz.h"), &header).expect("write swz.h");
    println!("cargo:include={}", include.display());
}
