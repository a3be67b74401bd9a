//! `assert_conflict_free!(SMEM, ACCESS, ...)`: a `const _: ()`, inside a hidden function so that it is also an item
//! of an inherent `impl`, that evaluates swizzle-core's checks on the tile and each access (a `WarpAccess`, or a
//! `Pattern`: both have `.warp()`), so a conflict fails the build. Written as a proc macro (not `macro_rules!`)
//! for one reason: each check's `panic!` carries the span of its own argument, so the compiler's error points at
//! the pattern that conflicts (or at the tile, when the tile itself is too large), not at the whole call.
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
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

/// `site`: the call's line and column, which (with the arguments' text) name the generated function, so two calls
/// in one module or `impl` get distinct names and the same source always gets the same name.
pub fn expand(input: TokenStream, site: (usize, usize)) -> TokenStream {
    let name = wrapper_name(&input, site);
    let Args { smem, patterns } = match syn::parse2::<Args>(input) {
        Ok(args) => args,
        Err(e) => return e.into_compile_error(),
    };
    let args = || std::iter::once(&smem).chain(&patterns);
    if let Some(self_ty) = args().find_map(|arg| find_self(arg.to_token_stream())) {
        let error = syn::Error::new(
            self_ty,
            "`Self` cannot be named in `assert_conflict_free!`: the check is an item of its own; \
             name the type instead (`Kernel::SMEM` for `Self::SMEM`)",
        )
        .into_compile_error();
        // The other arguments stay in the expansion, so their imports are not reported unused.
        let rest = args().filter(|arg| find_self(arg.to_token_stream()).is_none());
        return quote! {
            #error
            #[doc(hidden)]
            fn #name() {
                let _ = (#(#rest,)*);
            }
        };
    }
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
    // The check is a `const _` (evaluated whether used or not) inside a hidden function: a function is an item in
    // a module, a function body and an inherent `impl` alike, where an unnamed `const` is not allowed in an `impl`.
    quote! {
        #[doc(hidden)]
        fn #name() {
            const _: () = {
                #size
                #(#checks)*
            };
        }
    }
}

/// `_assert_conflict_free_` and 32 bits of an FNV-1a hash of the call's place and arguments: the name of the
/// hidden function (the leading `_` keeps it out of the `dead_code` lint without an `allow` that a crate's
/// `forbid(dead_code)` would refuse). A trait `impl` cannot hold it; the compiler then says so once, naming it.
fn wrapper_name(input: &TokenStream, (line, column): (usize, usize)) -> syn::Ident {
    let text = format!("{line}:{column}:{input}");
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let short = (hash ^ (hash >> 32)) as u32;
    syn::Ident::new(
        &format!("_assert_conflict_free_{short:08x}"),
        Span::call_site(),
    )
}

/// The span of the first `Self` in an argument (at any depth): the check's `const` cannot see an outer `Self`.
fn find_self(input: TokenStream) -> Option<Span> {
    input.into_iter().find_map(|token| match token {
        TokenTree::Ident(ident) if ident == "Self" => Some(ident.span()),
        TokenTree::Group(group) => find_self(group.stream()),
        _ => None,
    })
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
