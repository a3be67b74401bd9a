//! Workspace integration tests live in `tests/tests/`. This library only exists to run the README's Rust
//! examples as doctests, so the README cannot drift from the API.
#![doc = include_str!("../README.md")]
