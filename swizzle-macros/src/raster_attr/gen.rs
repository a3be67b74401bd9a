//! Code generation for `#[raster(...)]`: the struct unchanged, plus an inherent `impl` whose items forward to the
//! const `RASTER`. Absolute paths only.
use super::spec::Raster;
use proc_macro2::TokenStream;
use quote::quote;
use syn::ItemStruct;

pub fn generate(raster: &Raster, item: &ItemStruct) -> TokenStream {
    let doc = format!("The threadblock order of this kernel: `{raster}`.");
    let value = raster_tokens(raster);
    // The functions use the value itself, not `Self::RASTER`: a user's own `RASTER` on the struct then collides
    // once (the duplicate definition), with no ambiguity error at every use.
    generate_with(value.clone(), value, &doc, item)
}

/// The `impl` for attribute arguments that were refused: `RASTER`'s value is the errors themselves, so code that
/// names `Kernel::RASTER` or `Kernel::tile_of` still resolves, and the compiler, seeing a constant that already
/// failed, evaluates nothing of it and adds no error of its own.
pub fn generate_refused(errors: TokenStream, item: &ItemStruct) -> TokenStream {
    let value = quote!({ #errors ::swizzle_core::__private::Raster::Identity });
    let doc = "The threadblock order of this kernel (refused: see the error).";
    generate_with(value, quote!(Self::RASTER), doc, item)
}

/// The `impl`: `RASTER = value`, and the functions reading `used` (the value again, or `Self::RASTER`).
fn generate_with(
    value: TokenStream,
    used: TokenStream,
    doc: &str,
    item: &ItemStruct,
) -> TokenStream {
    let name = &item.ident;
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    quote! {
        #item

        #[allow(dead_code)]
        impl #impl_generics #name #ty_generics #where_clause {
            #[doc = #doc]
            pub const RASTER: ::swizzle_core::__private::Raster = #value;

            /// The tile computed by launch block `bid` (`blockIdx.y * gridDim.x + blockIdx.x` over
            /// `launch_grid(grid)`); `None` for an idle block. See `Raster::tile_of`.
            pub const fn tile_of(
                bid: u32,
                grid: ::swizzle_core::__private::Grid,
            ) -> ::core::option::Option<(u32, u32)> {
                #used.tile_of(bid, grid)
            }

            /// The launch bid that computes tile `(x, y)`. See `Raster::bid_of`.
            pub const fn bid_of(x: u32, y: u32, grid: ::swizzle_core::__private::Grid) -> u32 {
                #used.bid_of(x, y, grid)
            }

            /// The grid to launch for the tile grid `grid`. See `Raster::launch_grid`.
            pub const fn launch_grid(grid: ::swizzle_core::__private::Grid) -> ::swizzle_core::__private::Grid {
                #used.launch_grid(grid)
            }

            /// Whether this order can run on the tile grid `grid`. See `Raster::validate`.
            pub const fn validate(
                grid: ::swizzle_core::__private::Grid,
            ) -> ::core::result::Result<(), ::swizzle_core::__private::RasterError> {
                #used.validate(grid)
            }
        }
    }
}

fn raster_tokens(r: &Raster) -> TokenStream {
    let path = quote!(::swizzle_core::__private::Raster);
    match *r {
        Raster::Identity => quote!(#path::Identity),
        Raster::Strip { tile } => quote!(#path::Strip { tile: #tile }),
        Raster::Cutlass { log_tile } => quote!(#path::Cutlass { log_tile: #log_tile }),
        Raster::GroupM { group } => quote!(#path::GroupM { group: #group }),
        Raster::Serpentine { panel } => quote!(#path::Serpentine { panel: #panel }),
        Raster::Morton => quote!(#path::Morton),
        Raster::Diagonal => quote!(#path::Diagonal),
        // An order added to swizzle-spec and not yet here: say so rather than generate a wrong one.
        _ => syn::Error::new(
            proc_macro2::Span::call_site(),
            format!("raster order `{r}` is not supported by this version of swizzle-macros"),
        )
        .into_compile_error(),
    }
}
