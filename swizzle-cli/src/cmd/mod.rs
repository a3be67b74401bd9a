//! The subcommands, one module each: an `Args` (clap) and a `run` that returns the subcommand's verdict or its
//! one-line error (`crate::output` prints it and exits). Shared parsing lives in `crate::args`, pictures in
//! `crate::plot`; no subcommand reaches into `main`.
pub mod apply;
pub mod bench;
pub mod check;
pub mod decode;
pub mod emit_header;
pub mod l2;
pub mod l2_study;
pub mod layout_check;
pub mod plan;
pub mod profile;
pub mod ptxas;
pub mod raster;
pub mod report;
pub mod show;
pub mod synth;
pub mod tune;
pub mod verify;
pub mod wavefronts;
