//! Code generation for `swizzle!`: a block that evaluates the spec in a `const` item, so it folds to a constant
//! and can itself initialise a `const`. Absolute paths only.
use super::valid::Spec;
use proc_macro2::TokenStream;
use quote::quote;

pub fn generate(spec: &Spec) -> TokenStream {
    let value = match spec {
        Spec::Explicit { bits, base, shift } => quote! {
            ::swizzle_core::__private::Swizzle::new(#bits, #base, #shift)
        },
        Spec::Mode { mode, unit } => {
            let unit = match unit.as_deref() {
                None | Some("bytes") | Some("byte") => {
                    quote! { ::swizzle_core::__private::Unit::Bytes }
                }
                Some(elem) => quote! {
                    ::swizzle_core::__private::Unit::Elems(::swizzle_core::__private::Elem::named(#elem))
                },
            };
            quote! { ::swizzle_core::__private::ByteMode::named(#mode).swizzle_for(#unit) }
        }
    };
    quote! {
        {
            const __SWIZZLE: ::swizzle_core::__private::Swizzle = #value;
            __SWIZZLE
        }
    }
}

/// What an erroneous `swizzle!` expands to: the errors as `compile_error!` statements, then a valid `Swizzle`, so
/// the call still has the type it promises (no `missing angle brackets`, no E0223 after our message).
pub fn placeholder(errors: syn::Error) -> TokenStream {
    let errors = errors.into_compile_error();
    quote! {
        {
            #errors
            ::swizzle_core::__private::Swizzle::IDENTITY
        }
    }
}
