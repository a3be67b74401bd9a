//! swizzle-core: GPU shared-memory swizzles and threadblock orders as checked, `const fn` specs.
//!
//! Users depend on this crate alone; it re-exports the macros of `swizzle-macros`.
#![forbid(unsafe_code)]

// Lets generated code name `::swizzle_core::...` from inside this crate too.
extern crate self as swizzle_core;

pub mod rules;
pub mod swizzle;
pub mod raster;

pub use rules::RuleError;
pub use swizzle::{ParseSwizzleError, Swizzle};
pub use swizzle_macros::{raster, swizzle};
