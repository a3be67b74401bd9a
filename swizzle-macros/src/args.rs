//! A macro's arguments: a comma-separated list of items (`key = value` pairs, names), a trailing comma allowed.
//! Each macro's `ast` module says what one item is; only token shapes are checked here.
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::Token;

/// The items of a macro's argument list, in order.
pub struct Args<T> {
    pub items: Vec<T>,
}

impl<T: Parse> Parse for Args<T> {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let items = Punctuated::<T, Token![,]>::parse_terminated(input)?;
        Ok(Args {
            items: items.into_iter().collect(),
        })
    }
}
