//! The generated CUDA / C++ header (`swz.cuh`): the same swizzle and rasters as this crate, for kernels.
//!
//! The formulas are not written here: each comes from the C++ twin kept beside its Rust function
//! ([`crate::swizzle::cuda_swizzle_template`], the `CUDA_*` constants of [`crate::raster`](mod@crate::raster)). This module only
//! assembles them, adds the portability prelude and the device conveniences, and renders named specs.
//!
//! ```text
//!   namespace swz {
//!     template <int B, int M, int S> struct Swizzle;     apply(), bit_msk, yyy_msk, zzz_msk, msk_sft
//!     struct Tile { uint32_t x; uint32_t y; bool active; };
//!     struct LaunchGrid { uint32_t x; uint32_t y; };
//!     Tile raster_identity(bid, gx, gy)          Tile raster_strip(bid, gx, gy, tile)
//!     Tile raster_cutlass(bid, gx, gy, log_tile) LaunchGrid raster_cutlass_launch(gx, gy, log_tile)
//!     Tile raster_group_m(bid, gx, gy, group)    Tile raster_serpentine(bid, gx, gy, panel)
//!     Tile raster_morton(bid, gx, gy)            Tile raster_diagonal(bid, gx, gy)
//!     // device only (__CUDACC__): launch_bid(), raster_*_here(...) reading blockIdx / gridDim
//!     // named specs: using SmemA = swz::Swizzle<3,3,3>;  struct GemmOrder { tile_of, launch_grid, here };
//!   }
//! ```
//! Every function is `SWZ_HD constexpr`: `__host__ __device__ __forceinline__` under nvcc / NVRTC, `inline`
//! elsewhere, so the header also compiles as plain host C++17. Under NVRTC (`__CUDACC_RTC__`), which has no
//! `<cstdint>` without the toolkit's include path, the header typedefs the integer types itself.
//!
//! ```
//! use swizzle_core::cuda::Header;
//! use swizzle_core::raster::Raster;
//! use swizzle_core::Swizzle;
//! let text = Header::new()
//!     .swizzle("SmemA", Swizzle::new(3, 3, 3))
//!     .raster("GemmOrder", Raster::Strip { tile: 4 })
//!     .render();
//! assert!(text.contains("using SmemA = swz::Swizzle<3, 3, 3>;"));
//! assert!(text.contains("return raster_strip(bid, gx, gy, 4u);"));
//! ```

mod spec;

pub use spec::{layout_type, swizzle_type, Spec, CUDA_LAYOUT};

use crate::pattern::Smem;
use crate::raster::{self, Raster, RasterError};
use crate::swizzle::cuda_swizzle_template;
use crate::Swizzle;
use core::fmt;

/// The header with no named specs: `Header::new().render()`.
pub fn header() -> String {
    Header::new().render()
}

/// The file name kernels include (`#include "swz.cuh"`), also the NVRTC header name.
pub const HEADER_NAME: &str = "swz.cuh";

/// A header with named specs. Names become C++ identifiers in `namespace swz`.
///
/// `swizzle`/`raster` panic on a name that is not a usable C++ identifier or is already taken (a programmer error
/// in a build script); [`Header::try_swizzle`] / [`Header::try_raster`] return the reason instead (for the CLI).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    swizzles: Vec<(String, Swizzle)>,
    rasters: Vec<(String, Raster)>,
    /// Named layouts and spec structs, rendered (see `cuda/spec.rs`), with the toolkit headers they need.
    specs: Vec<(String, String)>,
    includes: Vec<&'static str>,
}

/// Why a named spec cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// Not `[A-Za-z_][A-Za-z0-9_]*`, or a C++ keyword.
    NotAnIdentifier(String),
    /// The header itself defines it (`Swizzle`, `Tile`, `raster_strip`, ...).
    Reserved(String),
    /// Given twice.
    Duplicate(String),
    /// The raster's parameter is out of range (`Raster::validate_params`).
    Raster(String, RasterError),
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::NotAnIdentifier(n) => write!(f, "{n:?} is not a C++ identifier"),
            HeaderError::Reserved(n) => write!(f, "{n:?} is already defined by the header"),
            HeaderError::Duplicate(n) => write!(f, "{n:?} is named twice"),
            HeaderError::Raster(n, e) => write!(f, "{n:?}: {e}"),
        }
    }
}

impl std::error::Error for HeaderError {}

impl Header {
    /// An empty header (no named specs).
    pub fn new() -> Header {
        Header::default()
    }

    /// Add `using NAME = swz::Swizzle<B, M, S>;`. Panics on a bad name (see [`Header::try_swizzle`]).
    pub fn swizzle(self, name: &str, sw: Swizzle) -> Header {
        self.try_swizzle(name, sw)
            .unwrap_or_else(|e| panic!("Header::swizzle: {e}"))
    }

    /// Add a raster alias struct `NAME` with the order's constants baked in. Panics on a bad name or an
    /// out-of-range parameter (`tile = 0`, ...).
    pub fn raster(self, name: &str, r: Raster) -> Header {
        self.try_raster(name, r)
            .unwrap_or_else(|e| panic!("Header::raster: {e}"))
    }

    /// [`Header::swizzle`], returning the reason a name is refused.
    pub fn try_swizzle(mut self, name: &str, sw: Swizzle) -> Result<Header, HeaderError> {
        self.check_name(name)?;
        self.swizzles.push((name.to_string(), sw));
        Ok(self)
    }

    /// [`Header::raster`], returning the reason a name (or the raster's parameter) is refused.
    pub fn try_raster(mut self, name: &str, r: Raster) -> Result<Header, HeaderError> {
        self.check_name(name)?;
        r.validate_params()
            .map_err(|e| HeaderError::Raster(name.to_string(), e))?;
        self.rasters.push((name.to_string(), r));
        Ok(self)
    }

    /// Add `using NAME = swz::Layout<...>;` for a shared-memory layout. Panics on a bad name.
    pub fn layout(self, name: &str, smem: Smem) -> Header {
        self.try_layout(name, smem)
            .unwrap_or_else(|e| panic!("Header::layout: {e}"))
    }

    /// [`Header::layout`], returning the reason a name is refused.
    pub fn try_layout(mut self, name: &str, smem: Smem) -> Result<Header, HeaderError> {
        self.check_name(name)?;
        let text = format!("\n// {smem}\nusing {name} = {};\n", layout_type(&smem));
        self.specs.push((name.to_string(), text));
        Ok(self)
    }

    /// Add a kernel's whole spec as `struct NAME { ... };` (see [`Spec`]). Panics on a bad name.
    pub fn spec(self, spec: Spec) -> Header {
        self.try_spec(spec)
            .unwrap_or_else(|e| panic!("Header::spec: {e}"))
    }

    /// [`Header::spec`], returning the reason a name is refused.
    pub fn try_spec(mut self, spec: Spec) -> Result<Header, HeaderError> {
        self.check_name(spec.name())?;
        spec.validate()?;
        for h in spec.includes() {
            if !self.includes.contains(&h) {
                self.includes.push(h);
            }
        }
        self.specs.push((spec.name().to_string(), spec.render()));
        Ok(self)
    }

    fn check_name(&self, name: &str) -> Result<(), HeaderError> {
        let mut chars = name.chars();
        let ident = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident || CPP_KEYWORDS.contains(&name) {
            return Err(HeaderError::NotAnIdentifier(name.to_string()));
        }
        if RESERVED.contains(&name) || name.starts_with("raster_") || name.starts_with("SWZ_") {
            return Err(HeaderError::Reserved(name.to_string()));
        }
        if self
            .swizzles
            .iter()
            .map(|(n, _)| n)
            .chain(self.rasters.iter().map(|(n, _)| n))
            .chain(self.specs.iter().map(|(n, _)| n))
            .any(|n| n == name)
        {
            return Err(HeaderError::Duplicate(name.to_string()));
        }
        Ok(())
    }

    /// The whole header text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(&PRELUDE.replace("@VERSION@", env!("CARGO_PKG_VERSION")));
        if !self.includes.is_empty() {
            out.push_str("#if defined(__CUDACC__) || defined(__CUDACC_RTC__)\n");
            for h in &self.includes {
                out.push_str(&format!("#include <{h}>\n"));
            }
            out.push_str("#endif\n\n");
        }
        out.push_str("namespace swz {\n\n// ---- XOR swizzle (swizzle_core::swizzle) ----\n\n");
        out.push_str(&cuda_swizzle_template());
        out.push_str("\n\n// ---- shared-memory layouts (swizzle_core::pattern::Smem) ----\n\n");
        out.push_str(CUDA_LAYOUT);
        out.push_str("\n\n// ---- threadblock orders (swizzle_core::raster) ----\n\n");
        out.push_str(TYPES);
        for f in raster::CUDA_FUNCTIONS {
            out.push_str("\n\n");
            out.push_str(f);
        }
        out.push_str("\n\n");
        out.push_str(&device_conveniences());
        if !self.swizzles.is_empty() || !self.rasters.is_empty() || !self.specs.is_empty() {
            out.push_str("\n// ---- named specs ----\n");
        }
        for (name, sw) in &self.swizzles {
            out.push_str(&format!(
                "\n// {sw}\nusing {name} = swz::Swizzle<{}, {}, {}>;\n",
                sw.bits, sw.base, sw.shift
            ));
        }
        for (name, r) in &self.rasters {
            out.push_str(&raster_alias(name, r));
        }
        for (_, text) in &self.specs {
            out.push_str(text);
        }
        out.push_str("\n}  // namespace swz\n\n#endif  // SWZ_CUH_GENERATED\n");
        out
    }
}

/// Names the header defines in `namespace swz` (besides every `raster_*`), refused for named specs.
const RESERVED: [&str; 8] = [
    "Swizzle",
    "Layout",
    "Compose",
    "Tile",
    "LaunchGrid",
    "detail",
    "launch_bid",
    "swz",
];

const CPP_KEYWORDS: [&str; 62] = [
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "constexpr",
    "const_cast",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "nullptr",
    "operator",
    "private",
    "protected",
    "public",
    "register",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "template",
    "this",
    "throw",
    "true",
    "try",
    "typedef",
    "typename",
    "union",
    "unsigned",
    "using",
    "void",
];

/// Include guard, integer types, and `SWZ_HD`.
const PRELUDE: &str = r#"// swz.cuh: generated by swizzle-core @VERSION@ (`swz emit-header` or swizzle_core::cuda). Do not edit.
// Host C++17 (g++, clang++) and device (nvcc, NVRTC without toolkit includes).
#ifndef SWZ_CUH_GENERATED
#define SWZ_CUH_GENERATED

#if defined(__CUDACC_RTC__)
// NVRTC has no <cstdint> without the toolkit's include path.
typedef unsigned int uint32_t;
typedef int int32_t;
#else
#include <cstdint>
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define SWZ_HD __host__ __device__ __forceinline__
#else
#define SWZ_HD inline
#endif

"#;

/// The result types of the raster functions.
const TYPES: &str = r#"/// The tile a block computes; `active == false` (x = y = 0) for an idle block (CUTLASS padding, a bid past the grid).
struct Tile {
    uint32_t x;
    uint32_t y;
    bool active;
};

/// A launch grid (gridDim.x, gridDim.y).
struct LaunchGrid {
    uint32_t x;
    uint32_t y;
};"#;

/// `launch_bid()` and one `raster_*_here` per order, reading `blockIdx` / `gridDim` (device code only). Built from
/// the orders' C++ names and parameter names, so there is no formula here.
fn device_conveniences() -> String {
    let mut s = String::from(
        "#if defined(__CUDACC__)\n\
         /// The launch order of this block: blockIdx.y * gridDim.x + blockIdx.x.\n\
         __device__ __forceinline__ uint32_t launch_bid() { return blockIdx.y * gridDim.x + blockIdx.x; }\n",
    );
    for r in EXAMPLES {
        let f = r.cuda_fn();
        let s_ = &mut s;
        match (r, r.param()) {
            // CUTLASS launches more blocks than tiles: the caller passes the tile grid.
            (Raster::Cutlass { .. }, Some((p, _))) => s_.push_str(&format!(
                "/// The tile of this block; gx, gy = the TILE grid (gridDim is the larger launch grid).\n\
                 __device__ __forceinline__ Tile {f}_here(uint32_t gx, uint32_t gy, uint32_t {p}) {{ \
                 return {f}(launch_bid(), gx, gy, {p}); }}\n"
            )),
            (_, Some((p, _))) => s_.push_str(&format!(
                "__device__ __forceinline__ Tile {f}_here(uint32_t {p}) {{ \
                 return {f}(launch_bid(), gridDim.x, gridDim.y, {p}); }}\n"
            )),
            (_, None) => s_.push_str(&format!(
                "__device__ __forceinline__ Tile {f}_here() {{ return {f}(launch_bid(), gridDim.x, gridDim.y); }}\n"
            )),
        }
    }
    s.push_str("#endif  // __CUDACC__\n");
    s
}

/// One raster of each kind (the parameters do not matter): what `device_conveniences` iterates over.
const EXAMPLES: [Raster; 7] = [
    Raster::Identity,
    Raster::Strip { tile: 1 },
    Raster::Cutlass { log_tile: 0 },
    Raster::GroupM { group: 1 },
    Raster::Serpentine { panel: 1 },
    Raster::Morton,
    Raster::Diagonal,
];

/// `struct NAME { tile_of(bid, gx, gy); launch_grid(gx, gy); here(...); }` with the parameter baked in.
fn raster_alias(name: &str, r: &Raster) -> String {
    let call = r.cuda_call("bid", "gx", "gy");
    let (launch, here) = match *r {
        Raster::Cutlass { log_tile } => (
            format!("raster_cutlass_launch(gx, gy, {log_tile}u)"),
            "    /// gx, gy = the TILE grid (gridDim is the launch grid).\n    \
             static __device__ __forceinline__ Tile here(uint32_t gx, uint32_t gy) { return tile_of(launch_bid(), gx, gy); }"
                .to_string(),
        ),
        _ => (
            "LaunchGrid{gx, gy}".to_string(),
            "    static __device__ __forceinline__ Tile here() { return tile_of(launch_bid(), gridDim.x, gridDim.y); }"
                .to_string(),
        ),
    };
    format!(
        "\n// {r}\nstruct {name} {{\n    \
         static SWZ_HD constexpr Tile tile_of(uint32_t bid, uint32_t gx, uint32_t gy) {{ return {call}; }}\n    \
         /// The gridDim to launch for a gx x gy tile grid.\n    \
         static SWZ_HD constexpr LaunchGrid launch_grid(uint32_t gx, uint32_t gy) {{ return {launch}; }}\n\
         #if defined(__CUDACC__)\n{here}\n#endif\n}};\n"
    )
}
