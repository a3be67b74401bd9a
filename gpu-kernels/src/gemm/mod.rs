//! Tensor-core GEMM (`mma.sync.m16n8k16`, `ldmatrix`, `cp.async` ring, swizzled smem, raster block order), from
//! `gemm.cu` beside this file.
//!
//! `C = A·B`: A is `M x K` row-major, B is `K x N` row-major ([`BLayout::Kn`]) or `N x K` row-major
//! ([`BLayout::Nk`]), C is `M x N` row-major; each has a leading dimension (elements between rows). Inputs fp16 or
//! bf16, fp32 accumulation, output fp16, bf16 or fp32. Any M, N, K >= 1; the leading dimensions must keep every row
//! 16-byte aligned (the kernel moves 16-byte chunks), which [`Problem::validate`] checks before a launch.
//!
//! A kernel variant is a [`GemmSpec`] (tiles, stages, smem layout, order) plus the run-time choices (B layout,
//! input and output types). [`header`] renders all of it into `swz.cuh`: swizzle-core's header with the block
//! order, and one struct per smem tile with `offset(row, col)` built from the same [`Smem`](swizzle_core::Smem) values the bank
//! checks read.

pub mod family;
pub mod spec;

use crate::elem::{table_name, HostElem};
use crate::runtime::tma::TensorMap;
use crate::runtime::{Error, GemmCall, Gpu, Header, Kernel, Result, Source};
use cudarc::driver::{CudaSlice, DevicePtr, LaunchConfig, PushKernelArg};
pub use spec::{BLayout, GemmSpec, OutWidth, SmemKind};
use swizzle_core::raster::Grid;
use swizzle_core::Elem;
use swizzle_core::Size;

/// The kernel source, compiled per variant with its generated header.
pub const SOURCE: &str = include_str!("gemm.cu");

/// The input element types the kernel reads (fp32 accumulation).
pub const INPUTS: [Elem; 2] = [Elem::F16, Elem::BF16];

/// The output element types the kernel writes.
pub const OUTPUTS: [Elem; 3] = [Elem::F16, Elem::BF16, Elem::F32];

/// Unit roundoff of an output type (relative error of one rounding; [`OUTPUTS`] are floats).
pub fn eps(out: Elem) -> f64 {
    crate::elem::unit_roundoff(out).unwrap_or(1.0)
}

/// One GEMM problem: sizes, B layout and leading dimensions (elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// `M x N x K` (flattened into the JSON as `m`, `n`, `k`).
    #[serde(flatten)]
    pub size: Size,
    pub b: BLayout,
    pub lda: u32,
    pub ldb: u32,
    pub ldc: u32,
}

impl Problem {
    /// Tight leading dimensions: `lda = K`, `ldb = N` (Kn) or `K` (Nk), `ldc = N`.
    pub const fn new(size: Size, b: BLayout) -> Problem {
        let Size { n, k, .. } = size;
        Problem {
            size,
            b,
            lda: k,
            ldb: match b {
                BLayout::Kn => n,
                BLayout::Nk => k,
            },
            ldc: n,
        }
    }

    /// Each leading dimension rounded up to a multiple of `align` elements (16 bytes' worth: 8 for 16-bit).
    pub const fn padded(self, in_align: u32, out_align: u32) -> Problem {
        Problem {
            lda: self.lda.div_ceil(in_align) * in_align,
            ldb: self.ldb.div_ceil(in_align) * in_align,
            ldc: self.ldc.div_ceil(out_align) * out_align,
            ..self
        }
    }

    /// `(rows, cols)` of B as stored.
    pub const fn b_shape(&self) -> (u32, u32) {
        match self.b {
            BLayout::Kn => (self.size.k, self.size.n),
            BLayout::Nk => (self.size.n, self.size.k),
        }
    }

    /// Elements a buffer of `rows x cols` with leading dimension `ld` needs: `rows * ld`, the last row's padding
    /// included. (The kernel copies 16-byte chunks; a chunk that straddles the end of a row reads only its valid
    /// bytes, but the hardware access, and compute-sanitizer, cover the whole chunk, so it must lie inside the
    /// buffer.)
    const fn len(rows: u32, _cols: u32, ld: u32) -> usize {
        rows as usize * ld as usize
    }
    pub const fn a_len(&self) -> usize {
        Problem::len(self.size.m, self.size.k, self.lda)
    }
    pub const fn b_len(&self) -> usize {
        let (r, c) = self.b_shape();
        Problem::len(r, c, self.ldb)
    }
    pub const fn c_len(&self) -> usize {
        Problem::len(self.size.m, self.size.n, self.ldc)
    }

    /// Floating-point operations of one product (`2 M N K`).
    pub const fn flops(&self) -> f64 {
        self.size.flops() as f64
    }

    /// Everything a launch needs to be right, checked before it: sizes >= 1, leading dimensions at least the row
    /// length and keeping 16-byte row alignment (the kernel's cp.async and global stores move 16-byte chunks).
    pub fn validate(&self, out: Elem) -> Result<()> {
        if self.size.m == 0 || self.size.n == 0 || self.size.k == 0 {
            return Err(Error::Invalid(format!(
                "gemm: empty problem {}x{}x{}",
                self.size.m, self.size.n, self.size.k
            )));
        }
        let (_, b_cols) = self.b_shape();
        for (what, ld, cols, bytes) in [
            ("lda", self.lda, self.size.k, 2),
            ("ldb", self.ldb, b_cols, 2),
            ("ldc", self.ldc, self.size.n, out.bytes()),
        ] {
            if ld < cols {
                return Err(Error::Invalid(format!(
                    "gemm: {what} = {ld} is smaller than the row length {cols}"
                )));
            }
            if (ld * bytes) % 16 != 0 {
                return Err(Error::Invalid(format!(
                    "gemm: {what} = {ld} elements ({} bytes) is not a multiple of 16 bytes; the kernel moves \
                     16-byte row chunks: pad the leading dimension to a multiple of {}",
                    ld * bytes,
                    16 / bytes
                )));
            }
        }
        if self.size.m.max(self.size.n).max(self.size.k) > i32::MAX as u32 / 2
            || self.lda.max(self.ldb).max(self.ldc) > i32::MAX as u32
        {
            return Err(Error::Invalid("gemm: sizes must fit in i32".into()));
        }
        Ok(())
    }
}

impl Problem {
    /// The cuBLAS call of this problem (inputs of `ab`, output of `c`).
    pub const fn cublas(&self, ab: Elem, c: Elem) -> GemmCall {
        GemmCall {
            m: self.size.m,
            n: self.size.n,
            k: self.size.k,
            b_nk: matches!(self.b, BLayout::Nk),
            lda: self.lda,
            ldb: self.ldb,
            ldc: self.ldc,
            ab,
            c,
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{}x{} {}",
            self.size.m,
            self.size.n,
            self.size.k,
            self.b.name()
        )
    }
}

/// The whole `swz.cuh` of one variant, from swizzle-core's emitter: its header with the block order as
/// `GemmOrder`, and `struct Spec` with the smem tiles `SmemA`, `SmemB`, `SmemC` (each `offset(row, col) =
/// Sw::apply(row * pitch + col)`, from the same [`Smem`](swizzle_core::Smem) values the bank checks read) and the numbers `gemm.cu`
/// reads.
pub fn header(spec: &GemmSpec, b: BLayout, input: Elem, out: Elem) -> swizzle_core::cuda::Header {
    let n = |x: u32| i64::from(x);
    let s = swizzle_core::cuda::Spec::new("Spec")
        .doc(format!(
            "{spec}; B {}, {} in, {} out",
            b.name(),
            table_name(input),
            table_name(out)
        ))
        .pitched("SmemA", spec.a_smem())
        .pitched("SmemB", spec.b_smem(b))
        .pitched("SmemC", spec.c_smem(OutWidth::of(out)))
        .int("BM", n(spec.bm))
        .int("BN", n(spec.bn))
        .int("BK", n(spec.bk))
        .int("WM", n(spec.wm))
        .int("WN", n(spec.wn))
        .int("STAGES", n(spec.stages))
        .int("THREADS", n(spec.threads()))
        .int("MIN_BLOCKS", n(spec.min_blocks))
        .int("PREFETCH", n(u32::from(spec.prefetch)))
        .int("L2_PREFETCH", n(spec.l2_prefetch))
        .int("FILL_TMA", n(u32::from(spec.tma_fill)))
        .int("TMA_ALIGN", n(spec::TMA_ALIGN))
        .int("DATA_BYTES", n(spec.data_bytes(b, OutWidth::of(out))))
        .int("B_KN", n(u32::from(b == BLayout::Kn)))
        .int("IN_BF16", n(u32::from(input == Elem::BF16)))
        .int(
            "OUT_KIND",
            match out {
                Elem::F16 => 0,
                Elem::BF16 => 1,
                _ => 2,
            },
        )
        .int("OUT_BYTES", n(out.bytes()));
    swizzle_core::cuda::Header::new()
        .raster("GemmOrder", spec.raster)
        .spec(s)
}

/// The epilogue's `C = alpha · A·B + beta · C` factors.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Scale {
    pub alpha: f32,
    pub beta: f32,
}

impl Scale {
    /// `C = A·B` (C is not read).
    pub const PRODUCT: Scale = Scale {
        alpha: 1.0,
        beta: 0.0,
    };
}

/// One compiled variant: the spec and the run-time choices it was compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub spec: GemmSpec,
    pub b: BLayout,
    pub input: Elem,
    pub out: Elem,
}

impl Variant {
    /// A variant of `spec` for B stored as `b`, inputs of `input` and output of `out` ([`INPUTS`], [`OUTPUTS`]:
    /// checked before compiling, [`Variant::check_types`]).
    pub const fn new(spec: GemmSpec, b: BLayout, input: Elem, out: Elem) -> Variant {
        Variant {
            spec,
            b,
            input,
            out,
        }
    }

    /// The NVRTC source with its generated header.
    pub fn source(&self) -> Source {
        Source {
            name: "gemm.cu".into(),
            text: SOURCE.into(),
            headers: vec![Header {
                name: swizzle_core::cuda::HEADER_NAME.into(),
                text: header(&self.spec, self.b, self.input, self.out).render(),
            }],
        }
    }

    pub fn smem_bytes(&self) -> u32 {
        self.spec.smem_bytes(self.b, OutWidth::of(self.out))
    }

    /// Compile (or take from the cache), load, and allow the dynamic shared memory.
    pub fn prepare(&self, gpu: &Gpu) -> Result<Kernel> {
        self.prepare_from(gpu, &self.source())
    }

    /// [`Variant::prepare`] of another build of this variant's source (the GEMM's diagnostic builds, in
    /// gpu-bench).
    pub fn prepare_from(&self, gpu: &Gpu, source: &Source) -> Result<Kernel> {
        self.check_types()?;
        self.tma_layout_ok()?;
        if self.spec.tma_fill && !self.spec.tma_layout_agrees() {
            return Err(Error::Invalid(format!(
                "{}: the smem tiles are not TMA's 128B-swizzled boxes",
                self.spec.name
            )));
        }
        let kernel = gpu.kernel(source, &[], self.entry())?;
        gpu.allow_dynamic_smem(&kernel, self.smem_bytes())?;
        Ok(kernel)
    }

    /// The kernel's entry point: `gemm`, or `gemm_tma` (two tensor maps before the same parameters).
    pub fn entry(&self) -> &'static str {
        if self.spec.tma_fill {
            "gemm_tma"
        } else {
            "gemm"
        }
    }

    /// The kernel reads [`INPUTS`] and writes [`OUTPUTS`]; anything else is refused with one line.
    pub fn check_types(&self) -> Result<()> {
        crate::elem::check_supported("gemm input", self.input, &INPUTS)?;
        crate::elem::check_supported("gemm output", self.out, &OUTPUTS)
    }

    /// A [`GemmSpec::tma_fill`] variant needs B stored N x K.
    fn tma_layout_ok(&self) -> Result<()> {
        if self.spec.tma_fill && self.b != BLayout::Nk {
            return Err(Error::Invalid(format!(
                "{}: the TMA fill reads B stored N x K (tn) only",
                self.spec.name
            )));
        }
        Ok(())
    }

    /// The tensor maps of a [`GemmSpec::tma_fill`] launch: A (`m x k`, pitch `lda`) and B (`n x k`, pitch `ldb`)
    /// in the spec's boxes; refused for B stored K x N.
    fn tma_maps<I: HostElem>(
        &self,
        gpu: &Gpu,
        p: &Problem,
        a: &CudaSlice<I>,
        b: &CudaSlice<I>,
    ) -> Result<(TensorMap, TensorMap)> {
        self.tma_layout_ok()?;
        let (ta, tb) = self.spec.tma_tiles(self.input);
        let bytes = std::mem::size_of::<I>();
        let (pa, _ga) = a.device_ptr(gpu.stream());
        let (pb, _gb) = b.device_ptr(gpu.stream());
        Ok((
            TensorMap::k_major_pitch(pa, a.len() * bytes, &ta, p.size.m, p.size.k, p.lda)?,
            TensorMap::k_major_pitch(pb, b.len() * bytes, &tb, p.size.n, p.size.k, p.ldb)?,
        ))
    }

    /// The launch grid of `p` (the order's launch grid over the `N/BN x M/BM` tile grid).
    pub fn launch_config(&self, p: &Problem) -> Result<LaunchConfig> {
        let tiles = Grid::new(
            p.size.n.div_ceil(self.spec.bn),
            p.size.m.div_ceil(self.spec.bm),
        );
        self.spec.raster.validate(tiles).map_err(|e| {
            Error::Invalid(format!(
                "{}: order on a {tiles} tile grid: {e}",
                self.spec.name
            ))
        })?;
        let g = self.spec.raster.launch_grid(tiles);
        if g.y > 65535 {
            return Err(Error::Invalid(format!(
                "{}: launch grid {g} too tall",
                self.spec.name
            )));
        }
        Ok(LaunchConfig {
            grid_dim: (g.x, g.y, 1),
            block_dim: (self.spec.threads(), 1, 1),
            shared_mem_bytes: self.smem_bytes(),
        })
    }

    /// Queue `c = a · b` with a kernel from [`Variant::prepare`], after checking the problem and the buffers.
    pub fn launch<I: HostElem, O: HostElem>(
        &self,
        gpu: &Gpu,
        kernel: &Kernel,
        p: &Problem,
        a: &CudaSlice<I>,
        b: &CudaSlice<I>,
        c: &mut CudaSlice<O>,
    ) -> Result<()> {
        self.launch_scaled(gpu, kernel, p, Scale::PRODUCT, a, b, c)
    }

    /// Queue `c = alpha · a · b + beta · c`: alpha scales the fp32 accumulators; beta · c is added in fp32 to
    /// `alpha · a · b` as rounded to the output type (for 16-bit outputs that is two roundings, one more than
    /// cuBLAS). With `beta == 0` the kernel never reads `c` (it may hold anything, NaN included), as in BLAS.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_scaled<I: HostElem, O: HostElem>(
        &self,
        gpu: &Gpu,
        kernel: &Kernel,
        p: &Problem,
        scale: Scale,
        a: &CudaSlice<I>,
        b: &CudaSlice<I>,
        c: &mut CudaSlice<O>,
    ) -> Result<()> {
        if I::ELEM != self.input || O::ELEM != self.out || p.b != self.b {
            return Err(Error::Invalid(format!(
                "{}: compiled for {} {} -> {}, called with {} {} -> {}",
                self.spec.name,
                self.b.name(),
                table_name(self.input),
                table_name(self.out),
                p.b.name(),
                table_name(I::ELEM),
                table_name(O::ELEM)
            )));
        }
        p.validate(self.out)?;
        for (what, have, need) in [
            ("A", a.len(), p.a_len()),
            ("B", b.len(), p.b_len()),
            ("C", c.len(), p.c_len()),
        ] {
            if have < need {
                return Err(Error::Invalid(format!(
                    "gemm {p}: {what} has {have} elements, needs {need}"
                )));
            }
        }
        let cfg = self.launch_config(p)?;
        let (m, n, k) = (p.size.m as i32, p.size.n as i32, p.size.k as i32);
        let (lda, ldb, ldc) = (p.lda as i32, p.ldb as i32, p.ldc as i32);
        let maps = if self.spec.tma_fill {
            Some(self.tma_maps(gpu, p, a, b)?)
        } else {
            None
        };
        gpu.launch(kernel, cfg, |args| {
            if let Some((ma, mb)) = &maps {
                args.arg(ma).arg(mb);
            }
            args.arg(c)
                .arg(a)
                .arg(b)
                .arg(&m)
                .arg(&n)
                .arg(&k)
                .arg(&lda)
                .arg(&ldb)
                .arg(&ldc)
                .arg(&scale.alpha)
                .arg(&scale.beta);
        })
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {}->{}",
            self.spec.name,
            self.b.name(),
            table_name(self.input),
            table_name(self.out)
        )
    }
}

/// The cuBLAS peer (the one wrapper, [`crate::runtime::cublas`]).
pub use crate::runtime::cublas::Cublas;
