//! The timing harness's stream hold (`bench::hold`): it holds the stream for the time asked, and behind it a run's
//! events time the GPU alone, not the host's enqueue rate. (It compiles without local memory: probes_compile.rs.)

use gpu_bench::bench::{self, BenchConfig};
use gpu_kernels::Gpu;

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
