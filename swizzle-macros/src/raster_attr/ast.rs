//! Syntax of `#[raster(...)]`: comma-separated `key = value` pairs, on a struct. Only token shapes are checked here.
use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Item, ItemStruct, Token};

/// The `key = value` pairs, in order.
pub type Args = crate::args::Args<Pair>;

/// `key = value`; the value is any expression so that `-1` or `"4"` reach validation and get a precise message.
pub struct Pair {
    pub key: Ident,
    pub value: Expr,
}

impl Parse for Pair {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if !input.peek(Ident) {
            return Err(
                input.error("expected `key = value`, as in `#[raster(order = strip, tile = 4)]`")
            );
        }
        let key: Ident = input.parse()?;
        if !input.peek(Token![=]) {
            return Err(syn::Error::new(
                key.span(),
                format!("expected `key = value`, found `{key}` alone (to choose an order write `order = {key}`)"),
            ));
        }
        input.parse::<Token![=]>()?;
        let value: Expr = input.parse()?;
        Ok(Pair { key, value })
    }
}

/// The annotated item: a struct (unit, tuple or named; generics allowed). Anything else is refused on its first
/// token.
pub fn descriptor(item: TokenStream) -> syn::Result<ItemStruct> {
    match syn::parse2::<Item>(item)? {
        Item::Struct(s) => Ok(s),
        other => Err(syn::Error::new(
            first_token_span(&other),
            "#[raster] applies to a kernel-descriptor struct, as in `#[raster(tile = 4)] struct GemmKernel;`",
        )),
    }
}

/// The item without a further `#[raster]` attribute, and the error for it (one `#[raster]` per struct).
pub fn without_second_raster(item: TokenStream) -> (TokenStream, Option<syn::Error>) {
    let Ok(mut s) = syn::parse2::<ItemStruct>(item.clone()) else {
        return (item, None);
    };
    let is_raster = |a: &syn::Attribute| {
        a.path()
            .segments
            .last()
            .is_some_and(|seg| seg.ident == "raster")
    };
    let Some(k) = s.attrs.iter().position(is_raster) else {
        return (item, None);
    };
    let second = s.attrs.remove(k);
    let e = syn::Error::new_spanned(
        &second,
        "a struct has one #[raster] (one threadblock order); remove this one",
    );
    (quote::ToTokens::to_token_stream(&s), Some(e))
}

fn first_token_span(item: &Item) -> proc_macro2::Span {
    use quote::ToTokens;
    // Skip attributes: point at the visibility or keyword that says what the item is.
    let tokens: TokenStream = match item {
        Item::Fn(f) => f.sig.fn_token.to_token_stream(),
        Item::Enum(e) => e.enum_token.to_token_stream(),
        Item::Union(u) => u.union_token.to_token_stream(),
        Item::Trait(t) => t.trait_token.to_token_stream(),
        Item::Impl(i) => i.impl_token.to_token_stream(),
        Item::Mod(m) => m.mod_token.to_token_stream(),
        Item::Const(c) => c.const_token.to_token_stream(),
        Item::Static(s) => s.static_token.to_token_stream(),
        Item::Type(t) => t.type_token.to_token_stream(),
        other => other.to_token_stream(),
    };
    tokens.span()
}
