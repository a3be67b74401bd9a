//! The least time one launch needs to read a buffer from HBM, measured: a probe kernel (`hbm_read.cu`) streams
//! the bytes once in 16-byte loads over a full grid and keeps only their XOR.
//!
//! Bytes over the steady copy rate is a floor no launch reaches at a few tens of MB: a launch also pays its start,
//! the ramp of its first loads and its drain. On an H100 the probe reads 33.7 MB in 15.1 us, 75% of that floor,
//! 92% at 100 MB and 99% at 235 MB. The probe at a problem's bytes, timed in the same run, is the floor a
//! memory-bound kernel can be held to (`swz tune hopper shapes` runs it beside the GEMM at M <= 128).

use crate::bench::rotation;
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use gpu_kernels::runtime::{Gpu, Kernel, Result, Source};

const SOURCE: &str = include_str!("hbm_read.cu");

/// The probe's translation unit.
pub fn source() -> Source {
    Source {
        name: "hbm_read.cu".into(),
        text: SOURCE.into(),
        headers: Vec::new(),
    }
}

/// Threads per block.
pub const THREADS: u32 = 256;
/// Blocks per SM: 2048 threads, a full SM, each with one 16-byte load in flight per loop trip.
pub const BLOCKS_PER_SM: u32 = 8;

/// The compiled probe and its grid for this device.
pub struct HbmRead {
    kernel: Kernel,
    blocks: u32,
}

impl HbmRead {
    /// Compile and load the probe; its grid fills every SM.
    pub fn new(gpu: &Gpu) -> Result<HbmRead> {
        Ok(HbmRead {
            kernel: gpu.kernel(&source(), &[], "hbm_read")?,
            blocks: BLOCKS_PER_SM * gpu.props().sm_count,
        })
    }

    /// Words of the output: one per warp of the grid.
    pub fn out_words(&self) -> usize {
        (self.blocks * THREADS / 32) as usize
    }

    /// Queue one read of `src`'s whole 16-byte words (a shorter tail is not read); each warp's XOR lands in
    /// `out` (at least [`HbmRead::out_words`] long).
    pub fn launch(&self, gpu: &Gpu, src: &CudaSlice<u8>, out: &mut CudaSlice<u32>) -> Result<()> {
        assert!(out.len() >= self.out_words(), "hbm_read: output too short");
        let n = (src.len() / 16) as u64;
        let cfg = LaunchConfig {
            grid_dim: (self.blocks, 1, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        gpu.launch(&self.kernel, cfg, |a| {
            a.arg(src).arg(&n).arg(out);
        })
    }

    /// Buffers for reads of `bytes` (rounded up to 16): enough of them that together they exceed `l2_factor`
    /// times the L2, so a read walking them ([`HbmRead::run`]) comes from HBM.
    pub fn sets(&self, gpu: &Gpu, bytes: u64, l2_factor: usize) -> Result<ReadSets> {
        let n = bytes.div_ceil(16) as usize * 16;
        let count = rotation(n, gpu.props().l2_bytes, l2_factor);
        Ok(ReadSets {
            src: (0..count)
                .map(|_| gpu.zeros::<u8>(n))
                .collect::<Result<Vec<_>>>()?,
            out: gpu.zeros::<u32>(self.out_words())?,
        })
    }

    /// Queue the `i`-th read of a walk over `sets`.
    pub fn run(&self, gpu: &Gpu, sets: &mut ReadSets, i: usize) -> Result<()> {
        let n = sets.src.len();
        self.launch(gpu, &sets.src[i % n], &mut sets.out)
    }
}

/// The buffers one problem's reads walk ([`HbmRead::sets`]).
pub struct ReadSets {
    src: Vec<CudaSlice<u8>>,
    out: CudaSlice<u32>,
}

/// The XOR of `bytes`' little-endian 32-bit words (whole 16-byte words only): what the probe's output words XOR to.
pub fn xor_words(bytes: &[u8]) -> u32 {
    bytes[..bytes.len() / 16 * 16]
        .chunks_exact(4)
        .fold(0, |acc, w| {
            acc ^ u32::from_le_bytes([w[0], w[1], w[2], w[3]])
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_reads_whole_words_only() {
        let mut b = vec![0u8; 40];
        b[0] = 1;
        b[17] = 2; // word 4, byte 1
        b[33] = 0xff; // past the last whole 16-byte word
        assert_eq!(xor_words(&b), 1 ^ (2 << 8));
        assert_eq!(xor_words(&b[..15]), 0);
    }
}
