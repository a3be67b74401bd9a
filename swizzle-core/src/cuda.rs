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
//! Include guards: the library part above is `SWZ_CUH_LIBRARY`, the same in every header; the named specs have
//! their own guard, `SWZ_SPECS_<hash of their text>` or [`Header::try_guard`], so headers with different specs
//! can be included in one translation unit. Spec names are refused ([`HeaderError`]) when they are not C++
//! identifiers, are C/C++ keywords, are reserved (`_Foo`, `__x`), or are the header's own names.
//!
//! Every function is `SWZ_HD constexpr`: `__host__ __device__ __forceinline__` under nvcc / NVRTC, `inline`
//! elsewhere, so the header also compiles as plain host C++17. Under NVRTC (`__CUDACC_RTC__`), which has no
//! `<cstdint>` without the toolkit's include path, the header typedefs the integer types itself.
//!
//! A crate's build script writes the header into `OUT_DIR` with [`write_header`] (see `examples/build-header/` in
//! the repository).
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

mod operand_checks;
mod out_dir;
mod spec;
mod std_names;
mod wgmma_fn;

pub use operand_checks::{instr_desc_struct, operand_struct};
pub use out_dir::write_header;
pub use spec::{layout_type, pitched, swizzle_type, Constants, Spec, CUDA_LAYOUT};
pub use wgmma_fn::wgmma_tile;

use crate::pattern::Smem;
use crate::raster::{self, Raster, RasterError};
use crate::swizzle::cuda_swizzle_template;
use crate::wgmma::OperandTile;
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
    /// Include guard of the named specs; `None`: derived from their text ([`spec_guard`]).
    guard: Option<String>,
}

/// Why a named spec cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// Not `[A-Za-z_][A-Za-z0-9_]*`, or a C or C++ keyword.
    NotAnIdentifier(String),
    /// Reserved for the compiler and standard library: `_` then a capital letter (`_Foo`), or `__` anywhere.
    ReservedIdentifier(String),
    /// The header itself defines it (`Swizzle`, `Tile`, `raster_strip`, ...).
    Reserved(String),
    /// Given twice.
    Duplicate(String),
    /// A standard C/C++ header may define it as a macro (`NULL`, `INT_MAX`, `errno`, `M_PI`, `EINVAL`, ...).
    StandardMacro(String),
    /// An include guard that is also a name the header uses (a macro of that name would rewrite it).
    GuardInUse(String),
    /// The raster's parameter is out of range (`Raster::validate_params`).
    Raster(String, RasterError),
    /// A [`Spec::pitched`] layout that is not `Sw::apply(row * pitch + col)` on element offsets (or whose swizzle
    /// period is not whole rows).
    NotPitched(String, String),
    /// An operand tile TMA cannot write ([`OperandTile::validate_layout`]).
    Operand(String, crate::wgmma::OperandError),
    /// An instruction descriptor no `tcgen05.mma` accepts.
    InstrDesc(String, crate::tcgen05::IdescError),
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::NotAnIdentifier(n) => {
                write!(f, "{n:?} is not a C++ identifier (or is a C/C++ keyword)")
            }
            HeaderError::ReservedIdentifier(n) => write!(
                f,
                "{n:?} is reserved for the compiler and standard library (`_` then a capital letter, or `__`)"
            ),
            HeaderError::Reserved(n) => write!(f, "{n:?} is already defined by the header"),
            HeaderError::Duplicate(n) => write!(f, "{n:?} is named twice"),
            HeaderError::StandardMacro(n) => write!(
                f,
                "{n:?} may be a macro of the C/C++ standard headers (it would break once they are included)"
            ),
            HeaderError::GuardInUse(n) => write!(
                f,
                "{n:?} is a name the header uses; as the guard macro it would rewrite it"
            ),
            HeaderError::Raster(n, e) => write!(f, "{n:?}: {e}"),
            HeaderError::Operand(n, e) => write!(f, "{n:?}: {e}"),
            HeaderError::InstrDesc(n, e) => write!(f, "{n:?}: {e}"),
            HeaderError::NotPitched(n, layout) => write!(
                f,
                "{n:?}: layout {layout} is not Sw::apply(row * pitch + col) on element offsets with a period of whole rows"
            ),
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

    /// [`Header::try_swizzle`] for one or two layers: `using NAME = swz::Swizzle<...>;` or
    /// `using NAME = swz::Compose<swz::Swizzle<...>, swz::Swizzle<...>>;`.
    pub fn try_swizzle_fn(
        mut self,
        name: &str,
        sw: crate::SwizzleFn,
    ) -> Result<Header, HeaderError> {
        match sw {
            crate::SwizzleFn::Single(s) => self.try_swizzle(name, s),
            crate::SwizzleFn::Composed(_) => {
                self.check_name(name)?;
                let text = format!("\n// {sw}\nusing {name} = {};\n", spec::swizzle_type(sw));
                self.specs.push((name.to_string(), text));
                Ok(self)
            }
        }
    }

    /// [`Header::raster`], returning the reason a name (or the raster's parameter) is refused.
    pub fn try_raster(mut self, name: &str, r: Raster) -> Result<Header, HeaderError> {
        self.check_name(name)?;
        r.validate_params()
            .map_err(|e| HeaderError::Raster(name.to_string(), e))?;
        self.rasters.push((name.to_string(), r));
        Ok(self)
    }

    /// Add a Hopper operand tile's struct `NAME` (TMA box and swizzle, wgmma descriptor, alignment; see
    /// [`OperandTile::cuda_struct`]). Panics on a bad name or an invalid tile (programmer errors).
    pub fn wgmma_operand(mut self, name: &str, tile: OperandTile) -> Header {
        self.check_name(name)
            .unwrap_or_else(|e| panic!("Header::wgmma_operand: {e}"));
        tile.validate()
            .unwrap_or_else(|e| panic!("Header::wgmma_operand {name}: {e}"));
        self.specs.push((name.to_string(), tile.cuda_struct(name)));
        self
    }

    /// Add an MMA operand tile's struct `NAME` ([`operand_struct`]): the Hopper struct of
    /// [`Header::wgmma_operand`] plus the tcgen05 descriptor and `constexpr bool` checks for descriptors and tensor
    /// maps built elsewhere, for `static_assert`s. Refuses a bad name and a tile TMA cannot write.
    pub fn try_operand(self, name: &str, tile: OperandTile) -> Result<Header, HeaderError> {
        self.try_named(name, || {
            tile.validate_layout()
                .map_err(|e| HeaderError::Operand(name.to_string(), e))?;
            Ok(operand_struct(name, &tile))
        })
    }

    /// Add a `tcgen05.mma` instruction descriptor's struct `NAME` ([`instr_desc_struct`]). Refuses a bad name and
    /// a descriptor no instruction accepts.
    pub fn try_instr_desc(
        self,
        name: &str,
        d: crate::tcgen05::InstrDesc,
    ) -> Result<Header, HeaderError> {
        self.try_named(name, || {
            d.validate()
                .map_err(|e| HeaderError::InstrDesc(name.to_string(), e))?;
            Ok(instr_desc_struct(name, &d))
        })
    }

    /// Checks `name`, then adds the text `spec` gives under it (or its reason to refuse).
    fn try_named(
        mut self,
        name: &str,
        spec: impl FnOnce() -> Result<String, HeaderError>,
    ) -> Result<Header, HeaderError> {
        self.check_name(name)?;
        let text = spec()?;
        self.specs.push((name.to_string(), text));
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

    /// Set the include guard of the named specs (default: derived from their contents, see [`spec_guard`]).
    /// The name must be a usable macro name: an identifier, not reserved, not one of the header's own.
    ///
    /// ```
    /// use swizzle_core::{cuda::Header, Swizzle};
    /// let h = Header::new().swizzle("SmemA", Swizzle::new(3, 3, 3)).try_guard("MY_GEMM_SWZ").unwrap();
    /// assert!(h.render().contains("#ifndef MY_GEMM_SWZ\n#define MY_GEMM_SWZ\n"));
    /// assert!(Header::new().try_guard("__X").is_err());
    /// ```
    pub fn try_guard(mut self, guard: &str) -> Result<Header, HeaderError> {
        check_identifier(guard)?;
        if guard.starts_with("SWZ_") {
            return Err(HeaderError::Reserved(guard.to_string()));
        }
        if std_names::is_standard_macro(guard) {
            return Err(HeaderError::StandardMacro(guard.to_string()));
        }
        // A macro rewrites every use of its name: the guard must not be any identifier of the header, the named
        // specs' names included.
        let mut probe = self.clone();
        probe.guard = Some("SWZ_SPECS_PROBE".to_string());
        if identifiers(&probe.render()).any(|id| id == guard) {
            return Err(HeaderError::GuardInUse(guard.to_string()));
        }
        self.guard = Some(guard.to_string());
        Ok(self)
    }

    fn check_name(&self, name: &str) -> Result<(), HeaderError> {
        check_identifier(name)?;
        if header_defines(name) {
            return Err(HeaderError::Reserved(name.to_string()));
        }
        if std_names::is_standard_macro(name) {
            return Err(HeaderError::StandardMacro(name.to_string()));
        }
        if self.guard.as_deref() == Some(name) {
            return Err(HeaderError::GuardInUse(name.to_string()));
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
        out.push_str(&format!(
            "\n}}  // namespace swz\n\n#endif  // {LIBRARY_GUARD}\n"
        ));
        let specs = self.named_specs();
        if !specs.is_empty() {
            let guard = self.guard.clone().unwrap_or_else(|| spec_guard(&specs));
            // The toolkit headers the specs need go inside the specs' guard: the library guard may already be
            // defined by a header with other specs.
            let mut includes = String::new();
            if !self.includes.is_empty() {
                includes.push_str("#if defined(__CUDACC__) || defined(__CUDACC_RTC__)\n");
                for h in &self.includes {
                    includes.push_str(&format!("#include <{h}>\n"));
                }
                includes.push_str("#endif\n\n");
            }
            out.push_str(&format!(
                "\n// ---- named specs ----\n#ifndef {guard}\n#define {guard}\n\n{includes}namespace swz {{\n{specs}\n}}  // namespace swz\n\n#endif  // {guard}\n"
            ));
        }
        out
    }

    /// The named specs' C++ (without guard or namespace); empty when there are none.
    fn named_specs(&self) -> String {
        let mut out = String::new();
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
        out
    }
}

// ---- include guards -------------------------------------------------------------------------------------------
//
// A header is two parts. The library (Swizzle, Tile, the raster functions) is the same text in every header this
// version generates, so one fixed guard keeps it to one definition when two headers are included together. Each
// set of named specs gets its own guard, derived from its text: two headers with different specs both take
// effect (and a name given two different meanings is a C++ redefinition error, not a silent drop), the same
// header included twice is included once.

/// The include guard of the library part.
pub const LIBRARY_GUARD: &str = "SWZ_CUH_LIBRARY";

/// The include guard of a set of named specs: `SWZ_SPECS_` and the FNV-1a 64-bit hash of their C++ text, in hex.
/// The same specs always get the same guard, on every platform.
pub fn spec_guard(specs_text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in specs_text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("SWZ_SPECS_{h:016X}")
}

// ---- names --------------------------------------------------------------------------------------------------

/// A name usable as a C++ identifier in any header: `[A-Za-z_][A-Za-z0-9_]*`, no C or C++ keyword, and not
/// reserved for the implementation (`_Foo`, `__x`, `a__b`; [lex.name]: also reserved for the C library).
fn check_identifier(name: &str) -> Result<(), HeaderError> {
    let mut chars = name.chars();
    let ident = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ident || CPP_KEYWORDS.contains(&name) || C_KEYWORDS.contains(&name) {
        return Err(HeaderError::NotAnIdentifier(name.to_string()));
    }
    let b = name.as_bytes();
    if name.contains("__") || (b[0] == b'_' && b.len() > 1 && b[1].is_ascii_uppercase()) {
        return Err(HeaderError::ReservedIdentifier(name.to_string()));
    }
    Ok(())
}

/// The identifiers of C++ `text`, outside `//` comments (string literals hold none the header cares about).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .flat_map(|code| code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

/// Whether the header (or what it relies on) already gives `name` a meaning inside `namespace swz`: its own
/// types and functions, every `raster_*` and `SWZ_*`, the integer types it uses, and CUDA's built-in variables
/// (a type alias named `gridDim` would break `launch_bid()`).
fn header_defines(name: &str) -> bool {
    RESERVED.contains(&name) || name.starts_with("raster_") || name.starts_with("SWZ_")
}

/// Names the header defines in `namespace swz` (besides every `raster_*`), refused for named specs.
const RESERVED: [&str; 15] = [
    "Swizzle",
    "Layout",
    "Compose",
    "Tile",
    "LaunchGrid",
    "detail",
    "launch_bid",
    "swz",
    "uint32_t",
    "int32_t",
    "blockIdx",
    "blockDim",
    "gridDim",
    "threadIdx",
    "warpSize",
];

/// C++23 keywords and alternative tokens ([lex.key], [lex.digraph]), plus the identifiers with special meaning
/// (`final`, `override`, `import`, `module`) that would only confuse.
const CPP_KEYWORDS: [&str; 96] = [
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
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
    "final",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "import",
    "inline",
    "int",
    "long",
    "module",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "override",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

/// C keywords that are not C++ ones (the rest start with `_` and a capital: reserved anyway).
const C_KEYWORDS: [&str; 3] = ["restrict", "typeof", "typeof_unqual"];

/// Include guard, integer types, and `SWZ_HD`.
const PRELUDE: &str = r#"// swz.cuh: generated by swizzle-core @VERSION@ (`swz emit-header` or swizzle_core::cuda). Do not edit.
// Host C++17 (g++, clang++) and device (nvcc, NVRTC without toolkit includes).
#ifndef SWZ_CUH_LIBRARY
#define SWZ_CUH_LIBRARY

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
    for r in examples() {
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

/// One raster of each kind in [`Raster::NAMES`] order (the parameters do not matter): what `device_conveniences`
/// iterates over.
fn examples() -> Vec<Raster> {
    let mut each = Raster::sweep(1, 0);
    each.sort_by_key(|r| Raster::NAMES.iter().position(|n| *n == r.name()));
    each
}

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
