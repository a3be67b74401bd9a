//! GPU shared-memory layouts and threadblock orders as checked, `const fn` specs.
//!
//! # The four ideas
//!
//! - A **swizzle** ([`Swizzle`], CuTe's `Sw<B, M, S>`) is a bijection on offsets: it XORs `B` bits taken `S`
//!   bits higher into the `B` bits above the `M` low bits it keeps. Storing element `o` at `swizzle.apply(o)`
//!   spreads a tile's columns over the 32 shared-memory banks. [`swizzle!`] writes one and checks its rules while
//!   the crate compiles.
//! - A **layout** ([`Smem`]) is a tile ([`tile::Tile`]: rows, columns, element type, memory order) plus where each
//!   element goes: a swizzle in a stated unit, or row padding. [`Smem::byte_addr`] is the whole map
//!   `(row, col) -> byte`.
//! - An **access** ([`Pattern`], [`WarpAccess`]) is what one warp instruction reads or writes: which lane touches
//!   which element, with which width (`ld.shared.v4`, `ldmatrix.x4`, ...). The bank model ([`bank`]) counts the
//!   wavefronts it costs on a layout, exactly as the hardware does; [`assert_conflict_free!`] fails the build
//!   when one costs more than its ideal.
//! - A **raster** ([`raster::Raster`], written with [`#[raster]`](macro@raster)) is a threadblock order: which
//!   output tile the block launched `bid`-th computes, chosen so that blocks running together share L2 lines.
//!
//! # 30 seconds
//!
//! ```
//! use swizzle_core::{raster, swizzle, Swizzle};
//! use swizzle_core::raster::Grid;
//!
//! // 64x64 f16 tile, 128-byte rows: XOR the 16-byte chunk index (bits 3..6 of the element offset) with the row
//! // (bits 6..9).
//! const SMEM: Swizzle = swizzle!(B = 3, M = 3, S = 3);
//! const _: () = assert!(SMEM.apply(64) == 72); // row 1, chunk 0 -> chunk 1
//!
//! // The same layout named as a TMA byte mode, converted to f16 element offsets.
//! const SAME: Swizzle = swizzle!(SW128, unit = f16);
//! const _: () = assert!(SAME.bits == SMEM.bits && SAME.base == SMEM.base && SAME.shift == SMEM.shift);
//!
//! // A kernel descriptor with an L2-friendly block order: strips 4 tiles wide.
//! #[raster(tile = 4)]
//! struct Gemm;
//!
//! const _: () = assert!(matches!(Gemm::tile_of(12, Grid::new(5, 3)), Some((4, 0))));
//!
//! // The bank model at compile time: the build fails (naming the pattern, phase, bank and colliding lanes) unless
//! // 16-byte row stores and ldmatrix.x4 reads of the swizzled 64x64 f16 tile are both conflict-free.
//! use swizzle_core::pattern::{Pattern, Smem};
//! swizzle_core::assert_conflict_free!(
//!     Smem::row_major(64, 64, swizzle_core::Elem::F16).with_swizzle(SMEM),
//!     Pattern::ROW16,
//!     Pattern::LDMATRIX_X4
//! );
//! ```
//!
//! # Modules, by job
//!
//! | Job | Modules |
//! |-----|---------|
//! | Specs: the swizzle and what is built from it | [`mod@swizzle`], [`compose`] (two layers), [`units`] (elements, bytes, TMA byte modes), [`convert`] (Triton, ThunderKittens, absolute conventions), [`rules`] |
//! | Layouts | [`tile`] (shape and order), [`layout`] ([`Smem`]: tile + swizzle or padding) |
//! | Orders | [`mod@raster`] (threadblock rasters), [`l2`] (the L2 traffic model of a tiled GEMM under a raster) |
//! | Bank model and checks | [`bank`] (wavefronts), [`pattern`] (warp accesses), [`verify`] (compile-time and run-time checks) |
//! | Synthesis | [`synth`] (the smallest conflict-free swizzle for a set of accesses) |
//! | Header generation | [`cuda`] (the CUDA / C++17 header with the same numbers) |
//! | Hopper descriptors | [`wgmma`] (TMA boxes and wgmma shared-memory descriptors from one operand tile) |
//! | Descriptors a kernel builds, Hopper and Blackwell | [`descriptor`] (one encoder, decoder and checks for wgmma and tcgen05 shared-memory descriptors), [`tcgen05`] (the instruction descriptor, TMEM columns), [`tma`] (TMA swizzle modes and `cuTensorMapEncodeTiled` arguments checked against a tile), [`operand`] (how an operand or an instruction is written) |
//! | Models | [`register_cache`] (warp shuffle schedules), [`l2`] |
//!
//! # Features
//!
//! `std` (default): the checker, synthesis, header generation and the models, parsing, and `std::error::Error`
//! through `core::error::Error`. Without it the crate is `#![no_std]` and needs no allocator: the specs and their
//! `const fn` index functions (swizzles, compositions, units, layouts, rasters, the wgmma/TMA descriptor math),
//! and the `swizzle!` and `#[raster]` macros, are all there, for kernels written in Rust.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// Lets generated code name `::swizzle_core::...` from inside this crate too.
extern crate self as swizzle_core;

pub use swizzle_spec::{compose, convert, raster, rules, spelling, swizzle, units};

/// `Display` for a named value: it prints its `name()`, the spelling the parsers and the CLI read.
macro_rules! display_by_name {
    ($($t:ty),*) => {$(
        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    )*};
}

pub mod descriptor;
pub mod e4m3;
pub mod layout;
pub mod operand;
pub mod random;
pub mod scale;
pub mod tail;
pub mod tcgen05;
pub mod tile;
pub mod tma;
pub mod wgmma;

#[cfg(feature = "std")]
pub mod bank;
#[cfg(feature = "std")]
pub mod cuda;
#[cfg(feature = "std")]
pub mod l2;
#[cfg(feature = "std")]
pub mod pattern;
#[cfg(feature = "std")]
pub mod plan;
#[cfg(feature = "std")]
pub mod register_cache;
#[cfg(feature = "std")]
pub mod size;
#[cfg(feature = "std")]
pub mod synth;
#[cfg(feature = "std")]
pub mod verify;

pub use compose::{Composed, Layer, SwizzleFn};
pub use layout::Smem;
#[cfg(feature = "std")]
pub use pattern::{Pattern, WarpAccess};
pub use rules::RuleError;
#[cfg(feature = "std")]
pub use size::Size;
#[cfg(feature = "std")]
pub use swizzle::ParseSwizzleError;
pub use swizzle::Swizzle;
/// Fails the build unless every listed access is conflict-free on the layout.
///
/// Write it wherever the layout lives: in a module, a function body or an inherent `impl` block. It expands to a
/// hidden function holding `const _: () = { ... };` (the item `const _: () = assert!(...)` and static_assertions'
/// `const_assert!` are), which the compiler evaluates whether or not anything uses it; a failed check's label names
/// that function ("evaluation of `Kernel::_assert_conflict_free_…::_` failed here"). Name the layout by path
/// (`Kernel::SMEM`): the check is an item of its own and cannot see the `impl`'s `Self`, which is refused at the
/// `Self` token. A trait `impl` holds only the trait's items: there the compiler refuses the call once ("method
/// `_assert_conflict_free_…` is not a member of trait"); put the check in the type's inherent `impl` or beside the
/// trait `impl`.
///
/// ```
/// use swizzle_core::{assert_conflict_free, pattern::{Pattern, Smem}, units::Elem};
/// // A 32x32 f32 transpose tile padded by one word per row: column reads and row writes both conflict-free.
/// assert_conflict_free!(Smem::row_major(32, 32, Elem::F32).with_padding(4), Pattern::COL_LD, Pattern::ROW_ST);
///
/// // Beside the layout it checks, in the kernel's inherent impl.
/// struct Transpose;
/// impl Transpose {
///     const SMEM: Smem = Smem::row_major(32, 32, Elem::F32).with_padding(4);
///     assert_conflict_free!(Transpose::SMEM, Pattern::COL_LD, Pattern::ROW_ST);
/// }
/// ```
#[cfg(feature = "std")]
pub use swizzle_macros::assert_conflict_free;
pub use swizzle_macros::{raster, swizzle};
pub use tile::{Order, Tile};
pub use units::{ByteMode, Elem, SwizzleIn, Unit};

/// What the macros' generated code names. Not part of the API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::raster::{Grid, Raster, RasterError};
    pub use crate::units::{ByteMode, Elem, Unit};
    pub use crate::Swizzle;
    #[cfg(feature = "std")]
    pub use crate::{
        layout::Smem,
        verify::{check_size, check_warp},
    };
    pub use ::core;
}
