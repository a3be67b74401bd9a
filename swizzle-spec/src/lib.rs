//! The dependency-free core of [`swizzle-core`](https://docs.rs/swizzle-core): what both the library (at compile
//! and run time) and the `swizzle-macros` proc macros (while they expand) evaluate.
//!
//! - [`rules`]: the constraints on a swizzle's `(B, M, S)`, stated once;
//! - [`units`]: the element-type and byte-mode names the macros and the library accept;
//! - [`swizzle`]: the XOR swizzle [`Swizzle`] and its `const fn` index math;
//! - [`raster`]: threadblock orders ([`Raster`]) on a tile [`Grid`], as `const fn`s with their C++ twins.
//!
//! Users normally depend on `swizzle-core`, which re-exports all of this. The crate is `#![cfg_attr(not(test), no_std)]`; without its
//! default `alloc` feature it needs no allocator either (parsing and owned error text need `alloc`).
//!
//! ```
//! use swizzle_spec::{raster::Grid, Raster, Swizzle};
//! const SW: Swizzle = Swizzle::new(3, 3, 3);
//! const _: () = assert!(SW.apply(64) == 72);
//! const R: Raster = Raster::Strip { tile: 4 };
//! assert_eq!(R.tile_of(12, Grid::new(5, 3)), Some((4, 0)));
//! ```
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod compose;
pub mod convert;
pub mod raster;
pub mod rules;
pub mod spelling;
pub mod swizzle;
pub mod units;

pub use compose::{Composed, Layer, SwizzleFn};
pub use raster::{Grid, Raster, RasterError};
pub use rules::RuleError;
pub use swizzle::Swizzle;
pub use units::{ByteMode, Elem, SwizzleIn, Unit};
