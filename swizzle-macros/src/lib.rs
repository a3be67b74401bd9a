//! Proc macros re-exported by `swizzle-core`. Thin entry points only: parsing, validation and expansion live in
//! their own modules.
use proc_macro::TokenStream;

/// The swizzle rules, shared verbatim with swizzle-core.
#[path = "../../swizzle-core/src/rules.rs"]
#[allow(dead_code)]
mod rules;

/// `swizzle!(B = 3, M = 3, S = 3)`: a const `::swizzle_core::Swizzle`. (Placeholder until the macro work lands.)
#[proc_macro]
pub fn swizzle(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}

/// `#[raster(tile = 4)]` on a kernel descriptor. (Placeholder until the macro work lands.)
#[proc_macro_attribute]
pub fn raster(attr: TokenStream, item: TokenStream) -> TokenStream {
    let _ = attr;
    item
}
