//! The mma.sync ceiling, measured: a probe kernel (`peak.cu`) whose warps issue nothing but independent
//! `mma.sync.m16n8k16` (fp32 accumulate) on register operands, one block per SM. What it reaches is the most any
//! mma.sync GEMM can do on this card at the clock it holds, so `gemm_bench peak` times it beside cuBLAS in the same
//! interleaved rounds as the GEMM specs, and reads back the SM clock each probe block ran at.

use super::InType;
use crate::runtime::{Error, Gpu, Kernel, Result, Source};
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};

const SOURCE: &str = include_str!("peak.cu");

/// Flops of one `m16n8k16` mma: 2 * 16 * 8 * 16.
pub const MMA_FLOPS: f64 = 4096.0;

/// One probe configuration: input type, threads per block (128 = one warp per scheduler, 256 = two as in the
/// GEMM's 8-warp blocks, 512 = four) and independent accumulators per warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeakProbe {
    pub input: InType,
    pub threads: u32,
    pub acc: u32,
}

/// The probes `gemm_bench peak` runs per input type: the GEMM's own occupancy (two warps per scheduler, 32
/// accumulators as in a 64x64 warp tile) and its neighbours.
pub const PROBES: [(u32, u32); 6] = [(128, 32), (256, 8), (256, 16), (256, 32), (512, 8), (512, 16)];

impl PeakProbe {
    pub const fn new(input: InType, threads: u32, acc: u32) -> PeakProbe {
        PeakProbe {
            input,
            threads,
            acc,
        }
    }

    pub fn name(&self) -> String {
        format!(
            "mma.sync peak {} {}w/sched acc{}",
            self.input.name(),
            self.threads / 128,
            self.acc
        )
    }

    pub fn source(&self) -> Source {
        Source {
            name: "peak.cu".into(),
            text: format!(
                "#define PEAK_THREADS {}\n#define PEAK_ACC {}\n#define PEAK_BF16 {}\n{SOURCE}",
                self.threads,
                self.acc,
                u32::from(self.input == InType::Bf16)
            ),
            headers: Vec::new(),
        }
    }

    /// Checks the configuration, compiles and loads the probe.
    pub fn prepare(&self, gpu: &Gpu) -> Result<Kernel> {
        if !matches!(self.threads, 128 | 256 | 512) || !(1..=64).contains(&self.acc) {
            return Err(Error::Invalid(format!(
                "mma peak probe: {} threads, {} accumulators (128/256/512 threads, 1-64 accumulators)",
                self.threads, self.acc
            )));
        }
        gpu.kernel(&self.source(), &[], "mma_peak")
    }

    /// Flops of one launch of `iters` iterations on `blocks` blocks.
    pub fn flops(&self, blocks: u32, iters: u32) -> f64 {
        blocks as f64 * (self.threads / 32) as f64 * iters as f64 * self.acc as f64 * MMA_FLOPS
    }
}

/// The probe's buffers for a grid of `blocks` (one per SM).
pub struct PeakBuffers {
    pub blocks: u32,
    input: CudaSlice<u32>,
    out: CudaSlice<f32>,
    clocks: CudaSlice<u64>,
}

impl PeakBuffers {
    pub fn new(gpu: &Gpu, threads: u32) -> Result<PeakBuffers> {
        let blocks = gpu.props().sm_count;
        // Operands: random-ish 16-bit pairs in [-1, 1) (fp16 and bf16 alike: small normal values).
        let words: Vec<u32> = super::random_input::<half::f16>(2 * 256, 7)
            .chunks(2)
            .map(|p| u32::from(p[0].to_bits()) | (u32::from(p[1].to_bits()) << 16))
            .collect();
        Ok(PeakBuffers {
            blocks,
            input: gpu.upload(&words)?,
            out: gpu.zeros::<f32>((blocks * threads.max(512)) as usize)?,
            clocks: gpu.zeros::<u64>(2 * blocks as usize)?,
        })
    }

    /// Mean SM clock of the last launch, MHz: per block cycles / nanoseconds, averaged over the blocks.
    pub fn clock_mhz(&self, gpu: &Gpu) -> Result<f64> {
        let c = gpu.download(&self.clocks)?;
        let per_block: Vec<f64> = c
            .chunks(2)
            .filter(|p| p[1] > 0)
            .map(|p| 1e3 * p[0] as f64 / p[1] as f64)
            .collect();
        if per_block.is_empty() {
            return Err(Error::Invalid("mma peak probe: no clock recorded".into()));
        }
        Ok(per_block.iter().sum::<f64>() / per_block.len() as f64)
    }
}

impl PeakProbe {
    /// Queue one launch of `iters` iterations.
    pub fn launch(&self, gpu: &Gpu, kernel: &Kernel, buf: &mut PeakBuffers, iters: u32) -> Result<()> {
        let cfg = LaunchConfig {
            grid_dim: (buf.blocks, 1, 1),
            block_dim: (self.threads, 1, 1),
            shared_mem_bytes: 0,
        };
        let iters = iters as i32;
        gpu.launch(kernel, cfg, |a| {
            a.arg(&buf.input).arg(&mut buf.out).arg(&mut buf.clocks).arg(&iters);
        })
    }
}

/// The ceiling in one number: the probe the GEMM's blocks resemble (two warps per scheduler, 32 accumulators, as
/// in a 64x64 warp tile) timed with `cfg` at `flops` of work per launch, the way the GEMM's rows are timed.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Measured {
    pub tflops: f64,
    pub median_ms: f64,
    /// The SM clock of the last launch, MHz.
    pub clock_mhz: f64,
}

/// The probe of [`Measured`] for input type `input`.
pub const GEMM_LIKE: (u32, u32) = (256, 32);

pub fn measure(gpu: &Gpu, cfg: &crate::bench::BenchConfig, input: InType, flops: f64) -> Result<Measured> {
    let probe = PeakProbe::new(input, GEMM_LIKE.0, GEMM_LIKE.1);
    let kernel = probe.prepare(gpu)?;
    let mut buf = PeakBuffers::new(gpu, probe.threads)?;
    let iters = (flops / probe.flops(buf.blocks, 1)).round().max(1.0) as u32;
    let stats = crate::bench::time(gpu, cfg, |_| probe.launch(gpu, &kernel, &mut buf, iters))?;
    Ok(Measured {
        tflops: probe.flops(buf.blocks, iters) / (stats.median_ms * 1e-3) / 1e12,
        median_ms: stats.median_ms,
        clock_mhz: buf.clock_mhz(gpu)?,
    })
}

impl Measured {
    /// How the tables name it.
    pub fn name(&self, input: InType) -> String {
        format!(
            "mma.sync probe {} (2 warps/scheduler, no memory; SM clock {:.0} MHz)",
            input.name(),
            self.clock_mhz
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flops_count_every_mma_of_every_warp() {
        // 132 blocks x 8 warps x 10 iterations x 32 accumulators x 4096.
        let p = PeakProbe::new(InType::F16, 256, 32);
        assert_eq!(p.flops(132, 10), 132.0 * 8.0 * 10.0 * 32.0 * 4096.0);
    }

    #[test]
    #[ignore = "needs libnvrtc (CUDA 13)"]
    fn every_probe_compiles_without_local_memory() {
        for input in [InType::F16, InType::Bf16] {
            for (t, a) in PROBES {
                let p = PeakProbe::new(input, t, a);
                let out = crate::runtime::compile(&p.source(), "sm_90", &["--ptxas-options=-v".into()])
                    .unwrap_or_else(|e| panic!("{}: {e}", p.name()));
                let frame: Vec<&str> = out.log.lines().filter(|l| l.contains("bytes stack frame")).collect();
                assert!(!frame.is_empty(), "{}: no ptxas report", p.name());
                for l in frame {
                    assert!(
                        l.contains(" 0 bytes stack frame") && l.contains(" 0 bytes spill stores"),
                        "{}: {l}",
                        p.name()
                    );
                }
            }
        }
    }

    #[test]
    fn source_carries_the_configuration() {
        let s = PeakProbe::new(InType::Bf16, 512, 16).source();
        assert!(s.text.starts_with("#define PEAK_THREADS 512\n#define PEAK_ACC 16\n#define PEAK_BF16 1\n"));
    }
}
