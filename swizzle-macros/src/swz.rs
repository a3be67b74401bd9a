//! `swizzle!`: parse ([`ast`]), check ([`valid`]), then generate ([`gen`]) a const `::swizzle_core::Swizzle`.
//!
//! Forms (the full user-facing doc is on `swizzle_core::swizzle!`):
//! ```text
//!   swizzle!(B = 3, M = 3, S = 3)     explicit CuTe fields, any order; S may be omitted (defaults to B)
//!   swizzle!(SW128)                   a named byte mode (NONE, SW32, SW64, SW128), on byte addresses
//!   swizzle!(SW128, unit = f16)       the same mode on f16 element offsets (= Sw<3,3,3>)
//! ```
use proc_macro2::TokenStream;

mod ast;
mod gen;
mod valid;

/// The unit and mode names: the very table `swizzle_core::units` reads.
use swizzle_spec::units::names;

/// The generated expression, or on any error our messages followed by a placeholder swizzle, so the expansion
/// still type-checks as a `Swizzle` and the compiler adds nothing of its own.
pub fn expand(input: TokenStream) -> TokenStream {
    let spec = syn::parse2::<ast::Args>(input).and_then(|args| valid::validate(&args));
    match spec {
        Ok(spec) => gen::generate(&spec),
        Err(e) => gen::placeholder(e),
    }
}
