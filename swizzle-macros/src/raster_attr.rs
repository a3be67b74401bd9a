//! `#[raster(...)]` (placeholder: being written).
use proc_macro2::TokenStream;

pub fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let _ = attr;
    Ok(item)
}
