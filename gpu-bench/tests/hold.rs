//! The timing harness's stream hold (`bench::hold`): it compiles without local memory, it holds the stream for
//! the time asked, and behind it a run's events time the GPU alone, not the host's enqueue rate.

use gpu_bench::bench::{self, BenchConfig};
use gpu_kernels::runtime::compile;
use gpu_kernels::Gpu;

#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn hold_compiles_for_sm90_without_local_memory() {
    assert!(
        gpu_kernels::nvrtc_available(),
        "libnvrtc.so.13 not found: add its folder to LD_LIBRARY_PATH"
    );
    let out = compile(
        &bench::hold_source(),
        "sm_90",
        &["--ptxas-options=-v".into()],
    )
    .unwrap_or_else(|e| panic!("hold: {e}"));
    assert!(!out.cubin.is_empty());
    assert!(
        out.log.contains(" 0 bytes stack frame"),
        "hold: {}",
        out.log
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn the_hold_holds_the_stream_for_the_time_asked() {
    let gpu = Gpu::open(0).expect("a GPU");
    // Compiled and loaded before the events (host time between them would count).
    bench::hold(&gpu, 1).unwrap();
    gpu.sync().unwrap();
    let (start, end) = (gpu.timing_event().unwrap(), gpu.timing_event().unwrap());
    for ns in [20_000u64, 300_000] {
        start.record(gpu.stream()).unwrap();
        bench::hold(&gpu, ns).unwrap();
        end.record(gpu.stream()).unwrap();
        gpu.sync().unwrap();
        let ms = start.elapsed_ms(&end).unwrap() as f64;
        assert!(ms * 1e6 >= ns as f64, "hold({ns} ns) took {ms} ms");
        assert!(
            ms * 1e6 < ns as f64 + 50_000.0,
            "hold({ns} ns) took {ms} ms"
        );
    }
}

/// Each run enqueues a 2 µs kernel after 30 µs of host work: without the hold its events would span the host
/// work (the start event runs at once on an idle GPU), with it they span the kernel.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn timed_runs_count_gpu_time_not_host_enqueue_time() {
    let gpu = Gpu::open(0).expect("a GPU");
    let cfg = BenchConfig {
        warmup: 2,
        iters: 20,
        l2_factor: 1,
    };
    let slow_host = bench::time(&gpu, &cfg, |_| {
        let t = std::time::Instant::now();
        while t.elapsed() < std::time::Duration::from_micros(30) {}
        bench::hold(&gpu, 2_000)
    })
    .unwrap();
    assert!(
        slow_host.median < 0.015,
        "a 2 us kernel measured {:.1} us behind 30 us of host work per run",
        slow_host.median * 1e3
    );
}
