//! The tuning sweep: variants that each differ from [`BASE`] (the single-CTA spec) in one thing, so a difference
//! in speed is attributed to that thing; [`SHIPPED`] is one of them (clusters of two). `swz tune hopper sweep` times them; `hopper_compile` checks they all compile on the fast path.

use super::spec::{HopperSpec, BASE, CLUSTER2, SHIPPED};
use swizzle_core::raster::Raster;
use swizzle_core::ByteMode;

/// (what differs from [`BASE`], the variant). The first is [`BASE`] itself.
pub fn labelled() -> Vec<(&'static str, HopperSpec)> {
    vec![
        ("base (single CTA)", BASE),
        ("3 stages", HopperSpec { stages: 3, ..BASE }),
        (
            "wait each k-block (inflight 0)",
            HopperSpec {
                inflight: 0,
                ..BASE
            },
        ),
        (
            "128x128 tile, 6 stages",
            HopperSpec {
                bn: 128,
                stages: 6,
                ..BASE
            },
        ),
        (
            "SW64 (2 boxes per K tile)",
            HopperSpec {
                mode: ByteMode::Sw64,
                ..BASE
            },
        ),
        (
            "SW32 (4 boxes per K tile)",
            HopperSpec {
                mode: ByteMode::Sw32,
                ..BASE
            },
        ),
        (
            "no swizzle (interleaved, 8 boxes)",
            HopperSpec {
                mode: ByteMode::None,
                ..BASE
            },
        ),
        ("raster identity", BASE.with_raster(Raster::Identity)),
        (
            "raster group_m 16",
            BASE.with_raster(Raster::GroupM { group: 16 }),
        ),
        (
            "raster strip 4",
            BASE.with_raster(Raster::Strip { tile: 4 }),
        ),
        ("cluster 2, B multicast", CLUSTER2),
        (
            "stmatrix epilogue through smem",
            HopperSpec {
                smem_epilogue: true,
                ..BASE
            },
        ),
        ("cluster 2 + stmatrix epilogue (shipped)", SHIPPED),
        (
            "4-byte epilogue stores",
            HopperSpec {
                store16: false,
                ..BASE
            },
        ),
        (
            "cluster 2 + 4-byte stores",
            HopperSpec {
                cluster: 2,
                store16: false,
                ..BASE
            },
        ),
        (
            "consumer regs 240 / producer 24",
            HopperSpec {
                consumer_regs: 240,
                producer_regs: 24,
                ..BASE
            },
        ),
    ]
}

/// The candidates for shipping, measured against cuBLAS in the headline table (bf16 and fp16).
pub fn candidates() -> Vec<(&'static str, HopperSpec)> {
    vec![
        ("base (single CTA)", BASE),
        ("cluster 2", CLUSTER2),
        // The epilogue through shared memory (stmatrix, then 16-byte row reads and stores) instead of the register
        // quad transpose: faster than cluster 2 alone in interleaved rounds at 4096^3 and 8192^3.
        ("shipped (cluster 2 + stmatrix epilogue)", SHIPPED),
    ]
}

pub fn variants() -> Vec<HopperSpec> {
    labelled().into_iter().map(|(_, s)| s).collect()
}
