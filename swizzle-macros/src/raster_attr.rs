//! `#[raster(...)]` on a kernel-descriptor struct: parse ([`ast`]), check ([`valid`]), then generate ([`gen`]) an
//! inherent `impl` with the order as a const `::swizzle_core::__private::Raster` and `const fn` queries.
//!
//! ```text
//!   #[raster(tile = 4)]                         strip(tile=4): a parameter key alone names its order
//!   #[raster(order = strip, tile = 4)]          the same, explicit
//!   #[raster(order = cutlass, log_tile = 2)]    #[raster(order = group-m, group = 8)]
//!   #[raster(order = serpentine, panel = 2)]    #[raster(order = morton)]   identity   diagonal
//!   struct GemmKernel;
//! ```
//! generates
//! ```text
//!   impl GemmKernel {
//!       pub const RASTER: ::swizzle_core::__private::Raster = ...;
//!       pub const fn tile_of(bid: u32, grid: Grid) -> Option<(u32, u32)>;
//!       pub const fn bid_of(x: u32, y: u32, grid: Grid) -> u32;
//!       pub const fn launch_grid(grid: Grid) -> Grid;
//!       pub const fn validate(grid: Grid) -> Result<(), RasterError>;
//!   }
//! ```
//! Parameter rules (`tile >= 1`, `log_tile <= 16`, ...) come from `swizzle_spec::raster`, so the messages are the
//! library's own. Grid-dependent rules (Morton needs power-of-two sides) are checked by `validate(grid)`.
use proc_macro2::TokenStream;

mod ast;
mod gen;
mod valid;

/// The raster spec itself: the very module `swizzle_core::raster` re-exports.
use swizzle_spec::raster as spec;

/// The struct and its generated `impl`. On an error in the arguments: the struct with an `impl` whose `RASTER`
/// is our messages (so code using `Kernel::RASTER` or `Kernel::tile_of` still resolves, and the compiler, seeing
/// a constant that already failed, adds nothing of its own). On an item that is not a struct: the message, then the
/// item unchanged.
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    // `#[raster = "strip"]`: the compiler refuses key-value attribute macros itself (one error at the attribute)
    // and still expands the macro. Add nothing to that error; keep the struct and a placeholder `impl` so that
    // uses of it add none either.
    if key_value_form() {
        return match ast::descriptor(item.clone()) {
            Ok(s) => gen::generate_refused(TokenStream::new(), &s),
            Err(_) => item,
        };
    }
    let raster = syn::parse2::<ast::Args>(attr).and_then(|args| valid::validate(&args));
    // A second `#[raster]` on the same struct: one error on it, and it is dropped (so no duplicate `impl`).
    let (item, raster) = match ast::without_second_raster(item) {
        (item, None) => (item, raster),
        (item, Some(second)) => (
            item,
            match raster {
                Ok(_) => Err(second),
                Err(mut e) => {
                    e.combine(second);
                    Err(e)
                }
            },
        ),
    };
    match (ast::descriptor(item.clone()), raster) {
        (Ok(s), Ok(raster)) => gen::generate(&raster, &s),
        (Ok(s), Err(e)) => gen::generate_refused(e.into_compile_error(), &s),
        (Err(mut e), r) => {
            if let Err(args) = r {
                e.combine(args);
            }
            let mut out = e.into_compile_error();
            out.extend(item);
            out
        }
    }
}

/// True when the attribute was written `#[raster = ...]` (its text, where the compiler has it: a path, then `=`).
fn key_value_form() -> bool {
    let Some(text) = proc_macro2::Span::call_site().source_text() else {
        return false;
    };
    let body = text
        .trim_start_matches("#!")
        .trim_start_matches('#')
        .trim_start();
    let body = body.strip_prefix('[').unwrap_or(body);
    body.chars().find(|c| matches!(c, '(' | '=' | ']')) == Some('=')
}
