//! The mma.sync probe (`gemm::peak`) does the work it is credited with: every accumulator of every warp of every
//! block, every iteration. Each thread's output (its accumulators' sum) is compared with the host's value from the
//! m16n8k16 fragment layouts; a probe that skipped an iteration, an accumulator or a warp would be off by a whole
//! term.

use gpu_bench::gemm::peak::{expected_output, PeakBuffers, PeakProbe, PROBES};
use gpu_kernels::Gpu;

/// Of the products' summed magnitudes: fp32 accumulation over at most 7 x 64 terms stays far inside it.
const TOLERANCE: f64 = 1e-5;

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn probe_computes_every_mma_it_counts() {
    let gpu = Gpu::open(0).expect("a GPU");
    for input in gpu_kernels::gemm::INPUTS {
        for (threads, acc) in PROBES {
            let p = PeakProbe::new(input, threads, acc);
            let k = p.prepare(&gpu).expect("probe compiles");
            let mut buf = PeakBuffers::new(&gpu, input, threads).expect("buffers");
            for iters in [1u32, 7] {
                // The check can see one missing accumulator or one missing iteration in (nearly) every lane.
                let sensitive = (0..32)
                    .filter(|&lane| {
                        let (want, magnitude) =
                            expected_output(&buf.words, input, acc, iters, lane);
                        let tol = TOLERANCE * magnitude;
                        let fewer_acc = expected_output(&buf.words, input, acc - 1, iters, lane).0;
                        let fewer_iters = want * (iters - 1) as f64 / iters as f64;
                        (want - fewer_acc).abs() > tol && (want - fewer_iters).abs() > tol
                    })
                    .count();
                assert!(
                    sensitive >= 30,
                    "{}: only {sensitive} of 32 lanes can fail",
                    p.name()
                );
                // Poison the output first: a thread that writes nothing fails.
                buf.poison(&gpu).expect("poison");
                p.launch(&gpu, &k, &mut buf, iters).expect("launch");
                gpu.sync().expect("probe ran");
                let out = buf.output(&gpu).expect("download");
                let mut worst = 0f64;
                for (i, &o) in out[..(buf.blocks * threads) as usize].iter().enumerate() {
                    let (want, magnitude) = expected_output(&buf.words, input, acc, iters, i % 32);
                    let tol = TOLERANCE * magnitude;
                    let err = (o as f64 - want).abs();
                    assert!(
                        err <= tol,
                        "{} iters {iters}: thread {i} gave {o}, host {want} (tolerance {tol})",
                        p.name()
                    );
                    worst = worst.max(err / tol);
                }
                println!(
                    "{} iters {iters}: every thread within {worst:.3} of the tolerance",
                    p.name()
                );
            }
            assert!(buf.clock_mhz(&gpu).expect("clock") > 100.0);
        }
    }
}
