//! Reference code shared by the integration tests of this crate.
pub mod swizzle_idx;
