//! The mma.sync probe (`gemm::peak`) does the work it is credited with: every accumulator of every warp of every
//! block, every iteration. Each thread's output (its accumulators' sum) is compared with the host's value from the
//! m16n8k16 fragment layouts; a probe that skipped an iteration, an accumulator or a warp would be off by a whole
//! term.

use gpu_kernels::gemm::peak::{expected_output, PeakBuffers, PeakProbe, PROBES};
use gpu_kernels::gemm::InType;
use gpu_kernels::Gpu;

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn probe_computes_every_mma_it_counts() {
    let gpu = Gpu::open(0).expect("a GPU");
    for input in [InType::F16, InType::Bf16] {
        for (threads, acc) in PROBES {
            let p = PeakProbe::new(input, threads, acc);
            let k = p.prepare(&gpu).expect("probe compiles");
            let mut buf = PeakBuffers::new(&gpu, threads).expect("buffers");
            for iters in [1u32, 7] {
                // Poison the output first: a thread that writes nothing fails.
                buf.poison(&gpu).expect("poison");
                p.launch(&gpu, &k, &mut buf, iters).expect("launch");
                gpu.sync().expect("probe ran");
                let out = buf.output(&gpu).expect("download");
                let mut worst = 0f64;
                for (i, &o) in out[..(buf.blocks * threads) as usize].iter().enumerate() {
                    let want = expected_output(&buf.words, input, acc, iters, i % 32);
                    // fp32 accumulation of `acc * iters` sums of 16 products of values below 1 in magnitude.
                    let tol = 1e-5 * (acc * iters) as f64 * 16.0 + 1e-6 * want.abs();
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
