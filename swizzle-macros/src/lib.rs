//! Proc macros re-exported by `swizzle-core`. Thin entry points only: parsing, validation and expansion live in
//! their own modules (`swz` for `swizzle!`, `raster_attr` for `#[raster]`, `conflict_free` for
//! `assert_conflict_free!`).
use proc_macro::TokenStream;

mod conflict_free;
mod keys;
mod raster_attr;
mod swz;

#[doc = include_str!("swz/doc.md")]
#[proc_macro]
pub fn swizzle(input: TokenStream) -> TokenStream {
    swz::expand(input.into()).into()
}

/// `#[raster(tile = 4)]` on a kernel descriptor.
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
/// ```text
/// // A 32x32 f32 transpose tile padded by one word per row: column reads and row writes both conflict-free.
/// assert_conflict_free!(Smem::row_major(32, 32, Elem::F32).with_padding(4), Pattern::COL_LD, Pattern::ROW_ST);
/// ```
#[proc_macro]
pub fn assert_conflict_free(input: TokenStream) -> TokenStream {
    conflict_free::expand(input.into()).into()
}
