//! `assert_conflict_free!(SMEM, ACCESS, ...)`: a `const _: ()` that evaluates swizzle-core's checks on the tile
//! and each access (a `WarpAccess`, or a `Pattern`: both have `.warp()`), so a conflict fails the build. Written as a proc macro (not `macro_rules!`) for one reason:
//! each check's `panic!` carries the span of its own argument, so the compiler's error points at the pattern that
//! conflicts (or at the tile, when the tile itself is too large), not at the whole call.
use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Token};

struct Args {
    smem: Expr,
    patterns: Vec<Expr>,
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut all = Punctuated::<Expr, Token![,]>::parse_terminated(input)?.into_iter();
        let usage = "expected a tile and at least one pattern: \
                     `assert_conflict_free!(SMEM, Pattern::ROW16, Pattern::LDMATRIX_X4)`";
        let Some(smem) = all.next() else {
            return Err(input.error(usage));
        };
        let patterns: Vec<Expr> = all.collect();
        if patterns.is_empty() {
            return Err(syn::Error::new_spanned(&smem, usage));
        }
        Ok(Args { smem, patterns })
    }
}

pub fn expand(input: TokenStream) -> TokenStream {
    let Args { smem, patterns } = match syn::parse2::<Args>(input) {
        Ok(args) => args,
        Err(e) => return e.into_compile_error(),
    };
    // `mixed_site`: the binding cannot capture a local of the user's. (A `let` pattern still resolves to a const
    // item of the same name, which hygiene does not cover: hence a name no user const has.)
    let var = syn::Ident::new("__swizzle_core_smem", Span::mixed_site());
    let text = syn::Ident::new("text", Span::mixed_site());
    let size_panic = panic_at(&smem, &text);
    let size = quote_spanned! {smem.span()=>
        let #var: ::swizzle_core::__private::Smem = #smem;
        if let ::core::option::Option::Some(#text) = ::swizzle_core::__private::check_size(&#var).as_str() {
            #size_panic
        }
    };
    let checks = patterns.iter().map(|p| {
        let panic = panic_at(p, &text);
        quote_spanned! {p.span()=>
            if let ::core::option::Option::Some(#text) = ::swizzle_core::__private::check_warp(&#var, &(#p).warp()).as_str() {
                #panic
            }
        }
    });
    quote! {
        const _: () = {
            #size
            #(#checks)*
        };
    }
}

/// `::core::panic!("{}", text);` (`text`: the message binding) whose span covers all of `expr`: the compiler reports a const panic at the
/// `panic!` call, and a call's span runs from its path (given `expr`'s first token's span) to its closing
/// parenthesis (given the last token's span). `syn::Error::new_spanned` uses the same trick.
fn panic_at(expr: &Expr, text: &syn::Ident) -> TokenStream {
    let mut tokens = expr.to_token_stream().into_iter();
    let start = tokens.next().map_or_else(Span::call_site, |t| t.span());
    let end = tokens.last().map_or(start, |t| t.span());
    let mut args = Group::new(Delimiter::Parenthesis, quote!("{}", #text));
    args.set_span(end);
    let path = quote_spanned!(start=> ::core::panic!);
    quote!(#path #args;)
}
