//! `swizzle!` (placeholder: being written).
use proc_macro2::TokenStream;

pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let _ = input;
    Ok(TokenStream::new())
}
