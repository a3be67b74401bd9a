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
// Warp register caches (shuffle schedules).
pub mod register_cache;
// The L2 traffic model of a tiled GEMM under a raster.
pub mod l2;
// The GEMM planner: which Hopper GEMM variant to run for a problem, and its predicted time.
pub mod plan;
// The bank-conflict model, access patterns, compile-time verification, synthesis.
pub mod bank;
pub mod pattern;
pub mod synth;
pub mod verify;
// Hopper: TMA tensor maps and wgmma descriptors derived from one operand-tile spec.
pub mod wgmma;
// The generated CUDA / C++ header.
pub mod cuda;

pub use compose::{Composed, Layer, SwizzleFn};
pub use pattern::{Pattern, Smem, WarpAccess};
pub use rules::RuleError;
pub use swizzle::{ParseSwizzleError, Swizzle};
/// ```
/// use swizzle_core::{assert_conflict_free, pattern::{Pattern, Smem}, units::Elem};
/// // A 32x32 f32 transpose tile padded by one word per row: column reads and row writes both conflict-free.
/// assert_conflict_free!(Smem::row_major(32, 32, Elem::F32).with_padding(4), Pattern::COL_LD, Pattern::ROW_ST);
/// ```
pub use swizzle_macros::assert_conflict_free;
pub use swizzle_macros::{raster, swizzle};
pub use tile::{Order, SwizzledTile, Tile};
pub use units::{ByteMode, Elem, SwizzleIn, Unit};
