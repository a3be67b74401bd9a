//! Proc macros re-exported by `swizzle-core`. Thin entry points only: parsing, validation and expansion live in
//! their own modules (`swz` for `swizzle!`, `raster_attr` for `#[raster]`, `conflict_free` for
//! `assert_conflict_free!`).
#![warn(missing_docs)]
use proc_macro::TokenStream;

mod args;
mod conflict_free;
mod keys;
mod raster_attr;
mod swz;

#[doc = include_str!("swz/doc.md")]
#[proc_macro]
pub fn swizzle(input: TokenStream) -> TokenStream {
    swz::expand(input.into()).into()
}

/// A threadblock order on a kernel descriptor: `#[raster(tile = 4)]` on a struct generates, in an inherent
/// `impl`, the order as `const RASTER` and the `const fn`s `tile_of(bid, grid)`, `bid_of(x, y, grid)`,
/// `launch_grid(grid)` and `validate(grid)`.
///
/// ```text
///   #[raster(tile = 4)]                         strip(tile=4): a parameter key alone names its order
///   #[raster(order = strip, tile = 4)]          the same, explicit
///   #[raster(order = cutlass, log_tile = 2)]    #[raster(order = group-m, group = 8)]
///   #[raster(order = serpentine, panel = 2)]    #[raster(order = morton)]   identity   diagonal
///   struct GemmKernel;
/// ```
///
/// Parameter mistakes (`tile = 0`, `log_tile = 17`, an unknown key or order) fail the build with the library's
/// own message, on the offending token; grid-dependent rules (Morton needs power-of-two sides) are checked by
/// `validate(grid)`.
#[proc_macro_attribute]
pub fn raster(attr: TokenStream, item: TokenStream) -> TokenStream {
    raster_attr::expand(attr.into(), item.into()).into()
}

/// Fails the build unless every listed pattern is conflict-free on the tile: every warp instruction costs exactly
/// its ideal wavefronts (one per phase). The first argument is a const
/// [`Smem`](../swizzle_core/pattern/struct.Smem.html) expression, each following one a const
/// [`Pattern`](../swizzle_core/pattern/struct.Pattern.html) expression. The error points at the pattern that
/// conflicts; a tile larger than one block's shared memory (227 KiB on sm_90) is refused at the tile argument.
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
/// ```text
/// // A 32x32 f32 transpose tile padded by one word per row: column reads and row writes both conflict-free.
/// assert_conflict_free!(Smem::row_major(32, 32, Elem::F32).with_padding(4), Pattern::COL_LD, Pattern::ROW_ST);
/// ```
#[proc_macro]
pub fn assert_conflict_free(input: TokenStream) -> TokenStream {
    let site = proc_macro::Span::call_site();
    conflict_free::expand(input.into(), (site.line(), site.column())).into()
}
