//! The fp32 shared-memory matmul of the threadblock-swizzling article under every threadblock order: one kernel (`matmul_l2.cu`), whose
//! variants differ only by the raster spec the header bakes in ([`MatmulL2::order`]).
//!
//! `C = A * B`, row-major fp32, `A` is `M x K`, `B` is `K x N`; [`TILE`] x [`TILE`] output tiles, one thread per
//! output, K steps of [`TILE`]. Any shape: ragged edges are zero-padded in shared memory.
//!
//! - [`family`]: the family on the frame (`swz bench matmul-l2`, `swz report`, verification, registry); every
//!   launch goes through it (`Family::prepared`).
//! - the L2 study (`swz l2-study`, gpu-bench's `matmul_l2`): time and TFLOP/s per (shape, order), cuBLAS SGEMM
//!   (fp32, no TF32) in the same run, the L2 model's ([`swizzle_core::l2`]) prediction for the same tile beside
//!   each row; `--once` for Nsight Compute.

pub mod family;

use crate::frame::{Accesses, SpecAccess};
use crate::runtime::{Error, Header, Result, Source};
use cudarc::driver::LaunchConfig;
use swizzle_core::bank::Op;
use swizzle_core::raster::{Grid, Raster};
use swizzle_core::Size;
use swizzle_core::{Elem, Smem, WarpAccess};

/// The `.cu` source, embedded (the device machine runs binaries only).
pub const SOURCE: &str = include_str!("matmul_l2.cu");

/// Output tile side, threads per block side and K step (the article's `BLOCK_SIZE`): the `.cu` reads it as
/// `Spec::TILE` from the generated header.
pub const TILE: u32 = 32;

/// The shared-memory tiles `As` and `Bs`: plain row-major `TILE x TILE` fp32 (the article's `__shared__ float
/// s[32][32]`): every access below is conflict-free on it, so it needs no padding or swizzle.
pub const SMEM: Smem = Smem::row_major(TILE, TILE, Elem::F32);

/// The kernel's shared-memory instructions as data (warp `w` of a block is thread row `ty = w`, lane = `tx`):
/// - stores `As[ty][tx] = A[..]`, `Bs[ty][tx] = B[..]`: lane -> column, warp -> row (a row per warp);
/// - `As[ty][k]` in the inner loop: every lane the same words (a broadcast); the unrolled loop reads four at a
///   time, one 16-byte load per 4 `k` (LDS.128 in the SASS, 2 wavefronts: Nsight Compute counts 1.2 per load
///   instruction of the kernel, 8 of these and 32 of the next);
/// - `Bs[k][tx]`: lane -> column, one instruction per `k` (row).
///
/// The reads list warp 0's 8 + 32 instructions: warp `ty` reads the same `Bs` words and `As` words one 128-byte
/// row lower (the same banks), so every warp conflicts alike, and the compile-time check stays small.
pub const ACCESSES: Accesses = Accesses::new()
    .with(SpecAccess {
        label: "A, B store",
        smem: SMEM,
        access: WarpAccess::new("sts tile", Op::STS32)
            .lane(TILE, 0, 1)
            .instr(TILE, 1, 0),
        conflict_free: true,
    })
    .with(SpecAccess {
        // The unrolled k loop reads As[ty][k..k+4] as one 16-byte load (LDS.128 in the SASS): one address for the
        // whole warp, which the hardware serves in two half-warp phases (2 wavefronts, no conflict).
        label: "A read (broadcast)",
        smem: SMEM,
        access: WarpAccess::new("lds As[ty][k..k+4]", Op::LDS128)
            .lane(TILE, 0, 0)
            .instr(TILE / 4, 0, 4),
        conflict_free: true,
    })
    .with(SpecAccess {
        label: "B read",
        smem: SMEM,
        access: WarpAccess::new("lds Bs[k][tx]", Op::LDS32)
            .lane(TILE, 0, 1)
            .instr(TILE, 1, 0),
        conflict_free: true,
    });

/// One variant: the tiled matmul with a block order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatmulL2 {
    pub order: Raster,
}

/// Every shipped variant: one per order of the study (what the frame verifies, benchmarks and checks at compile
/// time).
pub const SPECS: [MatmulL2; ORDERS.len()] = {
    let mut v = [MatmulL2::new(Raster::Identity); ORDERS.len()];
    let mut i = 0;
    while i < ORDERS.len() {
        v[i] = MatmulL2::new(ORDERS[i]);
        i += 1;
    }
    v
};

crate::assert_specs_conflict_free!(SPECS);

/// The orders of the study (swizzle-core's list, shared with `swz l2 --order all`).
pub use swizzle_core::l2::STUDY_ORDERS as ORDERS;

impl MatmulL2 {
    pub const fn new(order: Raster) -> MatmulL2 {
        MatmulL2 { order }
    }

    /// `matmul-l2 strip(tile=4)`.
    pub fn label(&self) -> String {
        format!("matmul-l2 {}", self.order)
    }

    /// The order's name (`strip`, ...), for the compile-time check's messages.
    pub const fn name(&self) -> &'static str {
        self.order.name()
    }

    /// The shared-memory accesses (the same for every order).
    pub const fn accesses(&self) -> Accesses {
        ACCESSES
    }

    /// The spec as the C++ struct `swz::Spec` the kernel reads every number from: `T`, `TILE`, the layouts
    /// `SmemA`, `SmemB` and the block order `Order`.
    pub fn cuda_spec(&self) -> swizzle_core::cuda::Spec {
        swizzle_core::cuda::Spec::new("Spec")
            .doc(self.label())
            .elem("T", Elem::F32)
            .int("TILE", TILE.into())
            .layout("SmemA", SMEM)
            .layout("SmemB", SMEM)
            .order("Order", self.order)
    }

    /// The generated header for this variant.
    pub fn header(&self) -> swizzle_core::cuda::Header {
        swizzle_core::cuda::Header::new().spec(self.cuda_spec())
    }

    /// The output tile grid of `gemm` (x along N, y along M).
    pub fn tile_grid(gemm: Size) -> Grid {
        Grid::new(gemm.n.div_ceil(TILE), gemm.m.div_ceil(TILE))
    }

    /// Can this order run on `gemm`'s tile grid (Morton needs power-of-two sides)?
    pub fn runs_on(&self, gemm: Size) -> bool {
        gemm.m > 0 && gemm.n > 0 && self.order.validate(Self::tile_grid(gemm)).is_ok()
    }

    /// The NVRTC source with its generated header (the order as `swz::TileOrder`) and options.
    pub fn source(&self) -> (Source, Vec<String>) {
        let header = Header {
            name: swizzle_core::cuda::HEADER_NAME.into(),
            text: self.header().render(),
        };
        (
            Source {
                name: "matmul_l2.cu".into(),
                text: SOURCE.into(),
                headers: vec![header],
            },
            Vec::new(),
        )
    }

    /// The launch: the order's launch grid over the tile grid, `TILE x TILE` threads.
    pub fn launch_config(&self, gemm: Size) -> Result<LaunchConfig> {
        if gemm.m == 0 || gemm.n == 0 || gemm.k == 0 {
            return Err(Error::Invalid(format!(
                "{}: empty GEMM {gemm}",
                self.label()
            )));
        }
        if gemm.m > i32::MAX as u32 || gemm.n > i32::MAX as u32 || gemm.k > i32::MAX as u32 {
            return Err(Error::Invalid(format!(
                "{}: {gemm} exceeds int",
                self.label()
            )));
        }
        let tiles = Self::tile_grid(gemm);
        self.order
            .validate(tiles)
            .map_err(|e| Error::Invalid(format!("{} on a {tiles} tile grid: {e}", self.label())))?;
        let launch = self.order.launch_grid(tiles);
        if launch.y > 65535 {
            return Err(Error::Invalid(format!(
                "{}: launch grid {launch} has more than 65535 rows",
                self.label()
            )));
        }
        Ok(LaunchConfig {
            grid_dim: (launch.x, launch.y, 1),
            block_dim: (TILE, TILE, 1),
            shared_mem_bytes: 0,
        })
    }
}

impl std::fmt::Display for MatmulL2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label())
    }
}

/// The host reference `C = A * B` (row-major), accumulated in f64.
pub fn matmul_host(a: &[f32], b: &[f32], gemm: Size) -> Vec<f32> {
    let (m, n, k) = (gemm.m as usize, gemm.n as usize, gemm.k as usize);
    assert!(
        a.len() == m * k && b.len() == k * n,
        "matmul_host: buffer sizes for {gemm}"
    );
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            let av = a[i * k + p] as f64;
            let row = &b[p * n..(p + 1) * n];
            for (cv, bv) in c[i * n..(i + 1) * n].iter_mut().zip(row) {
                *cv += av * *bv as f64;
            }
        }
    }
    c.into_iter().map(|v| v as f32).collect()
}
