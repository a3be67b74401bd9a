//! Syntax of `swizzle!`: a comma-separated list of `key = value` pairs, optionally led by a bare mode name.
//! Nothing is checked here beyond the token shapes.
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, Token};

/// The items, in order.
pub type Args = crate::args::Args<Item>;

pub enum Item {
    /// A bare identifier: a named byte mode such as `SW128`.
    Name(Ident),
    /// `key = value`.
    Pair { key: Ident, value: Expr },
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if !input.peek(Ident) {
            return Err(input.error(
                "expected `B = <int>`, `M = <int>`, `S = <int>`, or a named mode such as `SW128`",
            ));
        }
        let key: Ident = input.parse()?;
        if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            let value: Expr = input.parse()?;
            Ok(Item::Pair { key, value })
        } else {
            Ok(Item::Name(key))
        }
    }
}
