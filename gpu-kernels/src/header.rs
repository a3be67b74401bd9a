//! The CUDA header the kernels include as `swz.cuh`, rendered from swizzle-core values.
//!
//! TEMPORARY shim: `swizzle_core::cuda` (helper B) renders the real header; until it lands this renders the
//! subset of the same contract the kernels use (`swz::Swizzle<B,M,S>::apply`, `TileSwz`, `swz::Tile`,
//! `swz::raster_diagonal`), from the same `Swizzle` value. Replace the body of [`render`] by
//! `swizzle_core::cuda::Header::new().swizzle("TileSwz", sw).render()` once that exists.

use swizzle_core::Swizzle;

/// The include name of the header (`#include "swz.cuh"`).
pub const HEADER_NAME: &str = "swz.cuh";

/// The header text for a kernel whose shared-memory swizzle is `sw` (the identity for unswizzled layouts).
pub fn render(sw: Swizzle) -> String {
    let up = sw.shift.max(0);
    let down = (-sw.shift).max(0);
    format!(
        r#"#pragma once
#ifdef __CUDACC_RTC__
typedef unsigned int uint32_t;
#else
#include <cstdint>
#endif
#define SWZ_HD __host__ __device__ __forceinline__
namespace swz {{
template <int B, int M, int S> struct Swizzle {{
    static constexpr uint32_t bit_msk = B == 0 ? 0u : (0xffffffffu >> (32 - B));
    static constexpr uint32_t yyy_msk = bit_msk << (M + (S > 0 ? S : 0));
    static constexpr SWZ_HD uint32_t apply(uint32_t o) {{
        return S >= 0 ? o ^ ((o & yyy_msk) >> (S >= 0 ? S : 0)) : o ^ ((o & yyy_msk) << (S < 0 ? -S : 0));
    }}
}};
using TileSwz = Swizzle<{b}, {m}, {s}>;  // {sw} (shift up {up}, down {down})
struct Tile {{ uint32_t x, y; bool active; }};
SWZ_HD Tile raster_diagonal(uint32_t bid, uint32_t gx, uint32_t gy) {{
    Tile t;
    uint32_t by = bid / gx, bx = bid % gx;
    t.active = by < gy;
    t.x = (bx + by) % gx;
    t.y = by;
    return t;
}}
}}  // namespace swz
"#,
        b = sw.bits,
        m = sw.base,
        s = sw.shift,
    )
}
