//! swizzle-core: GPU shared-memory swizzles and threadblock orders as checked, `const fn` specs.
//!
//! Users depend on this crate alone; it re-exports the macros of `swizzle-macros`.
#![forbid(unsafe_code)]

// Lets generated code name `::swizzle_core::...` from inside this crate too.
extern crate self as swizzle_core;

// Specs: the XOR swizzle and what is built from it.
pub mod compose;
pub mod convert;
pub mod rules;
pub mod swizzle;
pub mod tile;
pub mod units;
// Threadblock orders.
pub mod raster;
// The bank-conflict model, access patterns, compile-time verification, synthesis.
pub mod bank;
pub mod pattern;
pub mod synth;
pub mod verify;
// The generated CUDA / C++ header.
pub mod cuda;

pub use compose::{Composed, Layer, SwizzleFn};
pub use pattern::{Pattern, Smem, WarpAccess};
pub use rules::RuleError;
pub use swizzle::{ParseSwizzleError, Swizzle};
pub use swizzle_macros::{raster, swizzle};
pub use tile::{Order, SwizzledTile, Tile};
pub use units::{ByteMode, Elem, SwizzleIn, Unit};
