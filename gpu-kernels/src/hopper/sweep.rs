//! The tuning sweep: variants that each differ from [`SHIPPED`] in one thing, so a difference in speed is
//! attributed to that thing. `hopper_bench` times them; `hopper_compile` checks they all compile on the fast path.

use super::spec::{HopperSpec, SHIPPED};
use swizzle_core::raster::Raster;
use swizzle_core::ByteMode;

/// (what differs, the variant). The first is the shipped spec itself.
pub fn labelled() -> Vec<(&'static str, HopperSpec)> {
    vec![
        ("shipped", SHIPPED),
        (
            "3 stages",
            HopperSpec {
                stages: 3,
                ..SHIPPED
            },
        ),
        (
            "wait each k-block (inflight 0)",
            HopperSpec {
                inflight: 0,
                ..SHIPPED
            },
        ),
        (
            "128x128 tile, 6 stages",
            HopperSpec {
                bn: 128,
                stages: 6,
                ..SHIPPED
            },
        ),
        (
            "SW64 (2 boxes per K tile)",
            HopperSpec {
                mode: ByteMode::Sw64,
                ..SHIPPED
            },
        ),
        (
            "SW32 (4 boxes per K tile)",
            HopperSpec {
                mode: ByteMode::Sw32,
                ..SHIPPED
            },
        ),
        (
            "no swizzle (interleaved, 8 boxes)",
            HopperSpec {
                mode: ByteMode::None,
                ..SHIPPED
            },
        ),
        ("raster identity", SHIPPED.with_raster(Raster::Identity)),
        (
            "raster group_m 16",
            SHIPPED.with_raster(Raster::GroupM { group: 16 }),
        ),
        (
            "raster strip 4",
            SHIPPED.with_raster(Raster::Strip { tile: 4 }),
        ),
        (
            "cluster 2 (B multicast)",
            HopperSpec {
                cluster: 2,
                ..SHIPPED
            },
        ),
        (
            "4-byte epilogue stores",
            HopperSpec {
                store16: false,
                ..SHIPPED
            },
        ),
        (
            "cluster 2 + 4-byte stores",
            HopperSpec {
                cluster: 2,
                store16: false,
                ..SHIPPED
            },
        ),
        (
            "consumer regs 240 / producer 24",
            HopperSpec {
                consumer_regs: 240,
                producer_regs: 24,
                ..SHIPPED
            },
        ),
    ]
}

/// The candidates for shipping, measured against cuBLAS in the headline table (bf16 and fp16).
pub fn candidates() -> Vec<(&'static str, HopperSpec)> {
    vec![
        ("shipped", SHIPPED),
        (
            "cluster 2",
            HopperSpec {
                cluster: 2,
                ..SHIPPED
            },
        ),
    ]
}

pub fn variants() -> Vec<HopperSpec> {
    labelled().into_iter().map(|(_, s)| s).collect()
}
