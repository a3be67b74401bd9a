//! The CUDA header the kernels include as `swz.cuh`: swizzle-core's generated header
//! ([`swizzle_core::cuda::Header`]) with the kernel's smem swizzle named `TileSwz`. Every mask, shift and raster
//! formula the CUDA side uses comes from there.

use swizzle_core::raster::Raster;
use swizzle_core::Swizzle;

/// The include name of the header (`#include "swz.cuh"`).
pub use swizzle_core::cuda::HEADER_NAME;

/// The header text for a kernel whose shared-memory swizzle is `sw` (the identity for unswizzled layouts) and,
/// when given, whose block order is `order` (named `TileOrder`).
pub fn render(sw: Swizzle, order: Option<Raster>) -> String {
    build(sw, order).render()
}

/// [`render`] before rendering.
pub fn build(sw: Swizzle, order: Option<Raster>) -> swizzle_core::cuda::Header {
    let h = swizzle_core::cuda::Header::new().swizzle("TileSwz", sw);
    match order {
        Some(r) => h.raster("TileOrder", r),
        None => h,
    }
}
