//! Both peers the benchmark tables measure against (D2D copy, cuBLAS gemmEx) time, at rates a GPU can reach.

mod common;
use common::gpu;

use gpu_bench::bench::BenchConfig;
use gpu_bench::tables::time_peer;
use gpu_kernels::frame::{Peer, Size};
use gpu_kernels::Elem;

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn both_peers_time() {
    let gpu = gpu();
    let cfg = BenchConfig {
        warmup: 2,
        iters: 5,
        l2_factor: 1,
    };
    let copy = time_peer(&gpu, &Peer::CopyD2D { bytes: 256 << 20 }, &cfg).unwrap();
    let gbps = Peer::CopyD2D { bytes: 256 << 20 }
        .measure()
        .rate(copy.median);
    eprintln!("D2D copy 256 MiB: {:.3} ms, {gbps:.0} GB/s", copy.median);
    assert!(gbps > 100.0 && gbps < 10_000.0, "{gbps}");
    for (ab, c) in [
        (Elem::F16, Elem::F16),
        (Elem::F16, Elem::F32),
        (Elem::BF16, Elem::BF16),
        (Elem::F32, Elem::F32),
    ] {
        let peer = Peer::CublasGemm {
            size: Size::mnk(4096, 4096, 4096),
            ab,
            c,
        };
        let s = time_peer(&gpu, &peer, &cfg).unwrap();
        let tflops = peer.measure().rate(s.median);
        eprintln!(
            "{} 4096^3: {:.3} ms, {tflops:.1} TFLOP/s",
            peer.name(),
            s.median
        );
        assert!(tflops > 1.0 && tflops < 2000.0, "{} {tflops}", peer.name());
    }
}
