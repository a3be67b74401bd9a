//! The mma.sync ceiling, measured: a probe kernel (`peak.cu`) whose warps issue nothing but independent
//! `mma.sync.m16n8k16` (fp32 accumulate) on register operands, one block per SM. What it reaches is the most any
//! mma.sync GEMM can do on this card at the clock it holds, so `swz tune gemm peak` times it beside cuBLAS in the same
//! interleaved rounds as the GEMM specs, and reads back the SM clock each probe block ran at.

use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use gpu_kernels::elem::table_name;
use gpu_kernels::gemm::INPUTS;
use gpu_kernels::runtime::{Error, Gpu, Kernel, Result, Source};
use swizzle_core::Elem;

const SOURCE: &str = include_str!("peak.cu");

/// Flops of one `m16n8k16` mma: 2 * 16 * 8 * 16.
pub const MMA_FLOPS: f64 = 4096.0;

/// One probe configuration: input type, threads per block (128 = one warp per scheduler, 256 = two as in the
/// GEMM's 8-warp blocks, 512 = four) and independent accumulators per warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeakProbe {
    pub input: Elem,
    pub threads: u32,
    pub acc: u32,
}

/// The probes `swz tune gemm peak` runs per input type: the GEMM's own occupancy (two warps per scheduler, 32
/// accumulators as in a 64x64 warp tile) and its neighbours.
pub const PROBES: [(u32, u32); 6] = [
    (128, 32),
    (256, 8),
    (256, 16),
    (256, 32),
    (512, 8),
    (512, 16),
];

impl PeakProbe {
    pub const fn new(input: Elem, threads: u32, acc: u32) -> PeakProbe {
        PeakProbe {
            input,
            threads,
            acc,
        }
    }

    pub fn name(&self) -> String {
        format!(
            "mma.sync peak {} {}w/sched acc{}",
            table_name(self.input),
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
                u32::from(self.input == Elem::BF16)
            ),
            headers: Vec::new(),
        }
    }

    /// Checks the configuration, compiles and loads the probe.
    pub fn prepare(&self, gpu: &Gpu) -> Result<Kernel> {
        gpu_kernels::elem::check_supported("mma peak probe", self.input, &INPUTS)?;
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

    /// The iteration count whose launch on `blocks` blocks does closest to `flops` (at least one).
    pub fn iters_for(&self, blocks: u32, flops: f64) -> u32 {
        (flops / self.flops(blocks, 1)).round().max(1.0) as u32
    }
}

/// The probe's buffers for a grid of `blocks` (one per SM).
pub struct PeakBuffers {
    pub blocks: u32,
    /// The operand words: lane `l` reads `words[8 l .. 8 l + 4]` as its A fragment and the next four as B
    /// fragments (two 16-bit values per word, the lower one in the low half).
    pub words: Vec<u32>,
    input: CudaSlice<u32>,
    out: CudaSlice<f32>,
    clocks: CudaSlice<u64>,
}

impl PeakBuffers {
    pub fn new(gpu: &Gpu, input: Elem, threads: u32) -> Result<PeakBuffers> {
        gpu_kernels::elem::check_supported("mma peak probe", input, &INPUTS)?;
        let blocks = gpu.props().sm_count;
        // Operands: seeded random values in [-1, 1) of the probe's input type, two per word.
        let bits: Vec<u16> = if input == Elem::BF16 {
            gpu_kernels::elem::random::<half::bf16>(2 * 256, 7)
                .iter()
                .map(|v| v.to_bits())
                .collect()
        } else {
            gpu_kernels::elem::random::<half::f16>(2 * 256, 7)
                .iter()
                .map(|v| v.to_bits())
                .collect()
        };
        let words: Vec<u32> = bits
            .chunks(2)
            .map(|p| u32::from(p[0]) | (u32::from(p[1]) << 16))
            .collect();
        Ok(PeakBuffers {
            blocks,
            input: gpu.upload(&words)?,
            words,
            out: gpu.zeros::<f32>((blocks * threads.max(512)) as usize)?,
            clocks: gpu.zeros::<u64>(2 * blocks as usize)?,
        })
    }

    /// Fill the output with NaN (all bits set), so a thread that writes nothing shows.
    pub fn poison(&mut self, gpu: &Gpu) -> Result<()> {
        gpu.fill_bytes(&mut self.out, 0xff)
    }

    /// The last launch's output: per thread of every block, the sum of its accumulators.
    pub fn output(&self, gpu: &Gpu) -> Result<Vec<f32>> {
        gpu.download(&self.out)
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
    pub fn launch(
        &self,
        gpu: &Gpu,
        kernel: &Kernel,
        buf: &mut PeakBuffers,
        iters: u32,
    ) -> Result<()> {
        let cfg = LaunchConfig {
            grid_dim: (buf.blocks, 1, 1),
            block_dim: (self.threads, 1, 1),
            shared_mem_bytes: 0,
        };
        let iters = iters as i32;
        gpu.launch(kernel, cfg, |a| {
            a.arg(&buf.input)
                .arg(&mut buf.out)
                .arg(&mut buf.clocks)
                .arg(&iters);
        })
    }
}

/// The ceiling in one number: the probe the GEMM's blocks resemble (two warps per scheduler, 32 accumulators, as
/// in a 64x64 warp tile) timed with `cfg` at `flops` of work per launch, the way the GEMM's rows are timed.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Measured {
    /// The probe's own rate: its launch's flops (the requested ones up to rounding of the iteration count) over
    /// the median time.
    pub tflops: f64,
    pub stats: crate::bench::Spread,
    /// The SM clock of the last launch, MHz.
    pub clock_mhz: f64,
}

/// The probe of [`Measured`] for input type `input`.
pub const GEMM_LIKE: (u32, u32) = (256, 32);

pub fn measure(
    gpu: &Gpu,
    cfg: &crate::bench::BenchConfig,
    input: Elem,
    flops: f64,
) -> Result<Measured> {
    let probe = PeakProbe::new(input, GEMM_LIKE.0, GEMM_LIKE.1);
    let kernel = probe.prepare(gpu)?;
    let mut buf = PeakBuffers::new(gpu, input, probe.threads)?;
    let iters = probe.iters_for(buf.blocks, flops);
    let stats = crate::bench::time(gpu, cfg, |_| probe.launch(gpu, &kernel, &mut buf, iters))?;
    Ok(Measured {
        tflops: probe.flops(buf.blocks, iters) / (stats.median * 1e-3) / 1e12,
        stats,
        clock_mhz: buf.clock_mhz(gpu)?,
    })
}

impl Measured {
    /// How the tables name it.
    pub fn name(&self, input: Elem) -> String {
        format!(
            "mma.sync probe {} (2 warps/scheduler, no memory; SM clock {:.0} MHz)",
            table_name(input),
            self.clock_mhz
        )
    }
}

/// What lane `lane` of every probe warp outputs after `iters` iterations of `acc` accumulators, from the
/// m16n8k16 fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16"): with g = lane / 4, t = lane % 4,
/// A's word i holds row g (+8 for i = 1, 3), columns 2t, 2t+1 (+8 for i = 2, 3); a B word as b0 holds rows 2t, 2t+1
/// of column g, as b1 rows 2t+8, 2t+9; the lane's outputs are D rows g and g+8, columns 2t and 2t+1.
/// Accumulator j uses B words `j % 4` (b0) and `(j + 1) % 4` (b1). Computed in f64; also returns the sum of the
/// products' magnitudes (what the fp32 rounding error scales with).
pub fn expected_output(
    words: &[u32],
    input: Elem,
    acc: u32,
    iters: u32,
    lane: usize,
) -> (f64, f64) {
    let val = |w: u32, hi: bool| -> f64 {
        let bits = if hi { (w >> 16) as u16 } else { w as u16 };
        if input == Elem::BF16 {
            half::bf16::from_bits(bits).to_f64()
        } else {
            half::f16::from_bits(bits).to_f64()
        }
    };
    let mut a = [[0f64; 16]; 16];
    for l in 0..32 {
        let (g, t) = (l / 4, l % 4);
        for i in 0..4 {
            let w = words[8 * l + i];
            let (r, c) = (g + 8 * (i & 1), 2 * t + 8 * (i >> 1));
            a[r][c] = val(w, false);
            a[r][c + 1] = val(w, true);
        }
    }
    let (g, t) = (lane / 4, lane % 4);
    let (mut sum, mut magnitude) = (0.0, 0.0);
    for j in 0..acc as usize {
        // B_j: 16 x 8, column n from lane n * 4 + t'.
        let mut b = [[0f64; 8]; 16];
        for l in 0..32 {
            let (bg, bt) = (l / 4, l % 4);
            let (w0, w1) = (words[8 * l + 4 + j % 4], words[8 * l + 4 + (j + 1) % 4]);
            b[2 * bt][bg] = val(w0, false);
            b[2 * bt + 1][bg] = val(w0, true);
            b[2 * bt + 8][bg] = val(w1, false);
            b[2 * bt + 9][bg] = val(w1, true);
        }
        for r in [g, g + 8] {
            for c in [2 * t, 2 * t + 1] {
                sum += (0..16).map(|k| a[r][k] * b[k][c]).sum::<f64>();
                magnitude += (0..16).map(|k| (a[r][k] * b[k][c]).abs()).sum::<f64>();
            }
        }
    }
    (iters as f64 * sum, iters as f64 * magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flops_count_every_mma_of_every_warp() {
        // 132 blocks x 8 warps x 10 iterations x 32 accumulators x 4096.
        let p = PeakProbe::new(Elem::F16, 256, 32);
        assert_eq!(p.flops(132, 10), 132.0 * 8.0 * 10.0 * 32.0 * 4096.0);
    }

    #[test]
    #[ignore = "needs libnvrtc (CUDA 13)"]
    fn every_probe_compiles_without_local_memory() {
        for input in [Elem::F16, Elem::BF16] {
            for (t, a) in PROBES {
                let p = PeakProbe::new(input, t, a);
                let out = gpu_kernels::runtime::compile(
                    &p.source(),
                    "sm_90",
                    &["--ptxas-options=-v".into()],
                )
                .unwrap_or_else(|e| panic!("{}: {e}", p.name()));
                let frame: Vec<&str> = out
                    .log
                    .lines()
                    .filter(|l| l.contains("bytes stack frame"))
                    .collect();
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

    /// The host reference of the probe's output, on operands worked by hand.
    #[test]
    fn expected_output_follows_the_fragment_layout() {
        let one = u32::from(half::f16::from_f32(1.0).to_bits());
        let two = u32::from(half::f16::from_f32(2.0).to_bits());
        // All ones: every D element is 16; a lane holds 4 of them per accumulator.
        let ones = vec![one | (one << 16); 256];
        for lane in [0, 5, 31] {
            let all = 3.0 * 8.0 * 4.0 * 16.0;
            assert_eq!(expected_output(&ones, Elem::F16, 8, 3, lane), (all, all));
        }
        // A[0][0] = 1 (lane 0, word 0, low half) and lane 0's B word 0 low half = 2: B_j[0][0] = 2 where j % 4 == 0
        // (word j % 4 is b0). Only D[0][0], which lane 0 holds, is non-zero: 2 for j = 0, 4 of 16 accumulators.
        let mut w = vec![0u32; 256];
        w[0] = one;
        w[4] = two;
        assert_eq!(
            expected_output(&w, Elem::F16, 16, 5, 0),
            (5.0 * 4.0 * 2.0, 5.0 * 4.0 * 2.0)
        );
        for lane in 1..32 {
            assert_eq!(
                expected_output(&w, Elem::F16, 16, 5, lane),
                (0.0, 0.0),
                "lane {lane}"
            );
        }
        // The same element through b1 (rows 8-9): A[0][8] is lane 0's word 2 low half, B_j[8][0] lane 0's word
        // (j + 1) % 4 as b1.
        let mut w = vec![0u32; 256];
        w[2] = one;
        w[4 + 1] = two;
        assert_eq!(expected_output(&w, Elem::F16, 4, 1, 0).0, 2.0); // j = 0 only: (0 + 1) % 4 = 1
    }

    #[test]
    fn iterations_match_the_requested_work() {
        let p = PeakProbe::new(Elem::F16, 256, 32);
        let one = p.flops(132, 1);
        assert_eq!(p.iters_for(132, 993.4 * one), 993);
        assert_eq!(p.iters_for(132, 0.2 * one), 1);
    }

    #[test]
    fn source_carries_the_configuration() {
        let s = PeakProbe::new(Elem::BF16, 512, 16).source();
        assert!(s
            .text
            .starts_with("#define PEAK_THREADS 512\n#define PEAK_ACC 16\n#define PEAK_BF16 1\n"));
    }
}
