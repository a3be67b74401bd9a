//! Proc macros re-exported by `swizzle-core`. Thin entry points only: parsing, validation and expansion live in
//! their own modules (`swz` for `swizzle!`, `raster_attr` for `#[raster]`).
use proc_macro::TokenStream;

/// The swizzle rules, shared verbatim with swizzle-core.
#[path = "../../swizzle-core/src/rules.rs"]
#[allow(dead_code)]
mod rules;

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
