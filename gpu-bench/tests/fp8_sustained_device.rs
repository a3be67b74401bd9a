//! The sustained-load FP8 bench on a GPU: every contestant's bursts, rates and clocks a GPU can have, and a
//! problem the kernel refuses reported as a failed line while the others are measured.

mod common;
use common::gpu;

use gpu_bench::hopper::fp8_sustained::{markdown, run};
use gpu_kernels::fp8::ScaleMode;
use gpu_kernels::Size;
use std::time::Duration;

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn every_contestant_bursts_at_a_rate_and_clock_a_gpu_can_have() {
    let gpu = gpu();
    // A ragged problem (no dimension a multiple of the tiles), one K not a multiple of 16, a square one.
    let shapes = [
        Size::mnk(1000, 1000, 1040),
        Size::mnk(64, 64, 24),
        Size::mnk(2048, 2048, 2048),
    ];
    let modes = [ScaleMode::Tensor, ScaleMode::Block];
    let (bursts, failed) = run(&gpu, &shapes, &modes, Duration::from_millis(200), 2).unwrap();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].starts_with("64x64x24"), "{failed:?}");
    // Two problems x (cuBLASLt + two modes) x two passes.
    assert_eq!(bursts.len(), 2 * 3 * 2);
    for b in &bursts {
        assert!(b.launches >= 5, "{b:?}");
        assert!(b.tflops > 1.0 && b.tflops < 2000.0, "{b:?}");
        if let (Some(mhz), Some(eff)) = (b.clock_mhz, b.efficiency) {
            assert!(mhz > 200.0 && mhz < 2200.0, "{b:?}");
            assert!(eff > 0.0 && eff < 1.05, "{b:?}");
        }
    }
    let md = markdown(&bursts, &failed, "test");
    for who in [
        "cuBLASLt per-tensor",
        "per-tensor hopper-",
        "per-block hopper-",
    ] {
        assert_eq!(md.matches(who).count(), 2, "{who}: {md}");
    }
    assert!(md.contains("failed: 64x64x24"), "{md}");
}
