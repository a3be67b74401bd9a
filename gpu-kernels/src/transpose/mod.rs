//! Matrix transpose: the transpose article's kernels and the shared-memory tiled transposes, from
//! `transpose.cu` beside this file.
//!
//! Convention: the input is `rows x cols` row-major (`ny = rows`, `nx = cols` in the CUDA source); the output is
//! its transpose, `cols x rows`. A variant is a [`Transpose`] value: one of the article's kernels with a block shape, or a
//! [`SmemSpec`] (tile, vector width, padding, swizzle). Specs become `-D` options and the generated header; the
//! `.cu` file is shared by all of them.

pub mod family;
pub mod smem;

use crate::elem::{Elem, HostElem};
use crate::runtime::{Error, Gpu, Header, Kernel, Result, Source};
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
pub use smem::{Access, Layout, SmemSpec};
use swizzle_core::raster::Grid;

/// The kernel source, compiled per variant with `-D` options.
pub const SOURCE: &str = include_str!("transpose.cu");

/// The article's kernels. `Row` kernels read rows and write columns; `Col` kernels read columns and write rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Classic {
    CopyRow,
    CopyCol,
    NaiveRow,
    NaiveCol,
    Unroll4Row,
    Unroll4Col,
    DiagonalRow,
    DiagonalCol,
    /// Not the article's: a plain 16-byte-per-thread copy, the simple copy kernel the tables compare with.
    CopyVec16,
}

impl Classic {
    pub const ALL: [Classic; 8] = [
        Classic::CopyRow,
        Classic::CopyCol,
        Classic::NaiveRow,
        Classic::NaiveCol,
        Classic::Unroll4Row,
        Classic::Unroll4Col,
        Classic::DiagonalRow,
        Classic::DiagonalCol,
    ];

    /// The `extern "C"` name in `transpose.cu` (also the name the tables print).
    pub const fn cuda_name(self) -> &'static str {
        match self {
            Classic::CopyRow => "copyRow",
            Classic::CopyCol => "copyCol",
            Classic::NaiveRow => "naiveRow",
            Classic::NaiveCol => "naiveCol",
            Classic::Unroll4Row => "unroll4Row",
            Classic::Unroll4Col => "unroll4Col",
            Classic::DiagonalRow => "diagonalRow",
            Classic::DiagonalCol => "diagonalCol",
            Classic::CopyVec16 => "copyVec16",
        }
    }

    /// The copy kernels are the bounds: their output is the input, not its transpose.
    pub const fn is_copy(self) -> bool {
        matches!(
            self,
            Classic::CopyRow | Classic::CopyCol | Classic::CopyVec16
        )
    }

    /// Threads span the output (`Col` transposes) rather than the input.
    const fn over_output(self) -> bool {
        matches!(
            self,
            Classic::NaiveCol | Classic::Unroll4Col | Classic::DiagonalCol
        )
    }

    const fn unroll(self) -> u32 {
        match self {
            Classic::Unroll4Row | Classic::Unroll4Col => 4,
            _ => 1,
        }
    }
}

/// The article's block shapes, and two more.
pub const CLASSIC_BLOCKS: [(u32, u32); 6] =
    [(8, 32), (16, 16), (32, 8), (32, 32), (16, 32), (32, 16)];

/// One kernel variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transpose {
    /// An article kernel with its `(blockDim.x, blockDim.y)`.
    Classic(Classic, (u32, u32)),
    /// A shared-memory tiled transpose.
    Smem(SmemSpec),
}

impl Transpose {
    /// The table name: `naiveRow`, `smem.swizzled.t64v4`, ...
    pub fn name(&self) -> String {
        match self {
            Transpose::Classic(s, _) => s.cuda_name().to_string(),
            Transpose::Smem(spec) => spec.name.to_string(),
        }
    }

    /// The block shape as `(x,y)`.
    pub fn block(&self) -> (u32, u32) {
        match self {
            Transpose::Classic(_, b) => *b,
            Transpose::Smem(spec) => spec.block(),
        }
    }

    /// True for the copy bounds (output == input).
    pub fn is_copy(&self) -> bool {
        matches!(self, Transpose::Classic(s, _) if s.is_copy())
    }

    /// `None` when the variant works on any element type, else the one its spec is for.
    pub fn elem(&self) -> Option<Elem> {
        match self {
            Transpose::Classic(..) => None,
            Transpose::Smem(spec) => Some(spec.elem),
        }
    }

    /// The generated header this variant compiles with: swizzle-core's header with the variant's
    /// `struct swz::Spec` (for one of the article's kernels, just its element type `T`).
    pub fn header(&self, elem: Elem) -> swizzle_core::cuda::Header {
        let spec = match self {
            Transpose::Classic(..) => swizzle_core::cuda::Spec::new("Spec")
                .doc(format!("transpose seed kernels on {elem}"))
                .bits_of("T", elem),
            Transpose::Smem(spec) => spec.cuda_spec(),
        };
        swizzle_core::cuda::Header::new().spec(spec)
    }

    /// The NVRTC source (with its generated header) and options for element type `elem`.
    pub fn source(&self, elem: Elem) -> (Source, Vec<String>) {
        let options = match self {
            Transpose::Classic(..) => Vec::new(),
            Transpose::Smem(spec) => spec.options(),
        };
        let header = Header {
            name: swizzle_core::cuda::HEADER_NAME.into(),
            text: self.header(elem).render(),
        };
        (
            Source {
                name: "transpose.cu".into(),
                text: SOURCE.into(),
                headers: vec![header],
            },
            options,
        )
    }

    /// The launch configuration for a `rows x cols` input.
    pub fn launch_config(&self, elem: Elem, rows: u32, cols: u32) -> Result<LaunchConfig> {
        let (nx, ny) = (cols, rows);
        let (bx, by) = self.block();
        let grid = match self {
            Transpose::Classic(Classic::CopyVec16, _) => {
                let vectors = (nx as u64 * ny as u64).div_ceil(16 / elem.bytes() as u64);
                (
                    vectors.div_ceil((bx * by) as u64).min(u32::MAX as u64) as u32,
                    1,
                )
            }
            Transpose::Classic(s, _) => {
                let (w, h) = if s.over_output() { (ny, nx) } else { (nx, ny) };
                (w.div_ceil(bx * s.unroll()), h.div_ceil(by))
            }
            Transpose::Smem(spec) => {
                let tiles = Grid::new(nx.div_ceil(spec.tile), ny.div_ceil(spec.tile));
                if rows == 0 || cols == 0 {
                    return Err(Error::Invalid(format!("{}: empty matrix", self.name())));
                }
                spec.raster.validate(tiles).map_err(|e| {
                    Error::Invalid(format!(
                        "{}: order on a {tiles} tile grid: {e}",
                        self.name()
                    ))
                })?;
                let launch = spec.raster.launch_grid(tiles);
                (launch.x, launch.y)
            }
        };
        if rows == 0 || cols == 0 {
            return Err(Error::Invalid(format!(
                "{}: empty {rows}x{cols} matrix",
                self.name()
            )));
        }
        if bx * by > 1024 || grid.1 > 65535 {
            return Err(Error::Invalid(format!(
                "{} cannot run {rows}x{cols} with block ({bx},{by}): grid {grid:?}",
                self.name()
            )));
        }
        let shared_mem_bytes = match self {
            Transpose::Smem(spec) => spec.smem_bytes(),
            Transpose::Classic(..) => 0,
        };
        Ok(LaunchConfig {
            grid_dim: (grid.0, grid.1, 1),
            block_dim: (bx, by, 1),
            shared_mem_bytes,
        })
    }

    /// Queue the transpose (or copy) of the `rows x cols` matrix `input` into `output`.
    pub fn launch<E: HostElem>(
        &self,
        gpu: &Gpu,
        input: &CudaSlice<E>,
        output: &mut CudaSlice<E>,
        rows: u32,
        cols: u32,
    ) -> Result<()> {
        let kernel = self.prepare(gpu, E::ELEM, &[])?;
        self.launch_prepared(gpu, &kernel, input, output, rows, cols)
    }

    /// Compile (or fetch from the cache) and load this variant for `elem`, and give it the dynamic shared memory
    /// its spec needs. Benchmarks call this once, outside the timed region.
    pub fn prepare(&self, gpu: &Gpu, elem: Elem, extra: &[&str]) -> Result<Kernel> {
        if let Some(e) = self.elem() {
            if e != elem {
                return Err(Error::Invalid(format!(
                    "{} is a {e} kernel, called with {elem}",
                    self.name()
                )));
            }
        }
        let (src, mut options) = self.source(elem);
        options.extend(extra.iter().map(|o| o.to_string()));
        let func = match self {
            Transpose::Classic(s, _) => s.cuda_name(),
            Transpose::Smem(_) => "transposeSmem",
        };
        let kernel = gpu.kernel(&src, &options, func)?;
        if let Transpose::Smem(spec) = self {
            gpu.allow_dynamic_smem(&kernel, spec.smem_bytes())?;
        }
        Ok(kernel)
    }

    /// Queue a kernel from [`Transpose::prepare`] on `rows x cols` `input` into `output`.
    pub fn launch_prepared<E: HostElem>(
        &self,
        gpu: &Gpu,
        kernel: &Kernel,
        input: &CudaSlice<E>,
        output: &mut CudaSlice<E>,
        rows: u32,
        cols: u32,
    ) -> Result<()> {
        let n = rows as usize * cols as usize;
        if input.len() < n || output.len() < n {
            return Err(Error::Invalid(format!(
                "{}: buffers of {} and {} elements for a {rows}x{cols} matrix",
                self.name(),
                input.len(),
                output.len()
            )));
        }
        let cfg = self.launch_config(E::ELEM, rows, cols)?;
        let (nx, ny) = (cols, rows);
        gpu.launch(kernel, cfg, |a| {
            a.arg(output).arg(input).arg(&nx).arg(&ny);
        })
    }

    /// The simple 16-byte copy kernel, the in-process reference beside the D2D copy.
    pub const COPY_VEC16: Transpose = Transpose::Classic(Classic::CopyVec16, (256, 1));

    /// The article's eight kernels at one block shape.
    pub fn classics(block: (u32, u32)) -> Vec<Transpose> {
        Classic::ALL
            .iter()
            .map(|s| Transpose::Classic(*s, block))
            .collect()
    }

    /// Every shipped variant that runs on `elem`: the seeds at every block shape of [`CLASSIC_BLOCKS`], the 16-byte
    /// copy, then the shared-memory specs for `elem`.
    pub fn all_for(elem: Elem) -> Vec<Transpose> {
        let mut v: Vec<Transpose> = CLASSIC_BLOCKS
            .iter()
            .flat_map(|b| Transpose::classics(*b))
            .collect();
        v.push(Transpose::COPY_VEC16);
        v.extend(
            smem::SPECS
                .iter()
                .filter(|s| s.elem == elem)
                .map(|s| Transpose::Smem(*s)),
        );
        v
    }
}

impl std::fmt::Display for Transpose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (bx, by) = self.block();
        write!(f, "{} ({bx},{by})", self.name())
    }
}

/// The host reference: the transpose of a `rows x cols` row-major matrix.
pub fn transpose_host<E: Copy>(input: &[E], rows: usize, cols: usize) -> Vec<E> {
    assert_eq!(
        input.len(),
        rows * cols,
        "transpose_host: {} elements for {rows}x{cols}",
        input.len()
    );
    let mut out = Vec::with_capacity(rows * cols);
    // Blocked so the strided side stays in cache on large matrices.
    const B: usize = 64;
    out.extend_from_slice(input); // every element is overwritten below

    for r0 in (0..rows).step_by(B) {
        for c0 in (0..cols).step_by(B) {
            for r in r0..(r0 + B).min(rows) {
                for c in c0..(c0 + B).min(cols) {
                    out[c * rows + r] = input[r * cols + c];
                }
            }
        }
    }
    out
}

/// A correctness check of one variant on one matrix: random input (never zeros), output poisoned with 0xFF
/// bytes (NaN in f32 and f16), one launch, every element compared bit for bit with the host reference.
pub struct Check<E: HostElem> {
    pub rows: u32,
    pub cols: u32,
    host_in: Vec<E>,
    expect_t: Vec<E>,
    dev_in: CudaSlice<E>,
    dev_out: CudaSlice<E>,
}

impl<E: HostElem> Check<E> {
    /// Upload a fresh random `rows x cols` input (seeded by its shape) and build the host references.
    pub fn new(gpu: &Gpu, rows: u32, cols: u32) -> Result<Check<E>> {
        let n = rows as usize * cols as usize;
        let host_in = crate::elem::random::<E>(n, ((rows as u64) << 32) | cols as u64);
        let expect_t = transpose_host(&host_in, rows as usize, cols as usize);
        let dev_in = gpu.upload(&host_in)?;
        let dev_out = gpu.zeros::<E>(n)?;
        Ok(Check {
            rows,
            cols,
            host_in,
            expect_t,
            dev_in,
            dev_out,
        })
    }

    /// Run `t` once and compare. The error names the variant, the size and the first wrong element.
    pub fn run(&mut self, gpu: &Gpu, t: &Transpose) -> Result<()> {
        gpu.fill_bytes(&mut self.dev_out, 0xFF)?;
        t.launch(gpu, &self.dev_in, &mut self.dev_out, self.rows, self.cols)?;
        gpu.sync()
            .map_err(|e| Error::Mismatch(format!("{t} on {}x{}: {e}", self.rows, self.cols)))?;
        let got = gpu.download(&self.dev_out)?;
        let expect = if t.is_copy() {
            &self.host_in
        } else {
            &self.expect_t
        };
        let n = expect.len();
        let bad = (0..n)
            .filter(|&i| got[i].bits() != expect[i].bits())
            .count();
        if bad == 0 {
            return Ok(());
        }
        // Every byte 0xFF, as filled above: all ones in the element's width.
        let poison_bits = u32::MAX >> (32 - 8 * E::ELEM.bytes());
        let poison = (0..n).filter(|&i| got[i].bits() == poison_bits).count();
        let first = (0..n)
            .find(|&i| got[i].bits() != expect[i].bits())
            .unwrap_or(0);
        let out_cols = if t.is_copy() { self.cols } else { self.rows } as usize;
        Err(Error::Mismatch(format!(
            "{t} {} on {}x{}: {bad} of {n} elements wrong ({poison} never written); first at output ({}, {}): \
             got bits {:#x}, expected {:#x}",
            E::ELEM,
            self.rows,
            self.cols,
            first / out_cols,
            first % out_cols,
            got[first].bits(),
            expect[first].bits()
        )))
    }
}

/// Check every kernel of `kernels` that runs on `E` on one fresh `rows x cols` input; the failures, one line each.
pub fn check_all<E: HostElem>(
    gpu: &Gpu,
    rows: u32,
    cols: u32,
    kernels: &[Transpose],
) -> Result<Vec<String>> {
    let mut check = Check::<E>::new(gpu, rows, cols)?;
    Ok(kernels
        .iter()
        .filter(|k| k.elem().is_none_or(|e| e == E::ELEM))
        .filter_map(|k| check.run(gpu, k).err().map(|e| e.to_string()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_transpose_matches_definition() {
        for (rows, cols) in [(1, 1), (3, 5), (31, 33), (65, 130)] {
            let a: Vec<u32> = (0..rows * cols).map(|i| i as u32 * 7 + 1).collect();
            let t = transpose_host(&a, rows, cols);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(t[c * rows + r], a[r * cols + c]);
                }
            }
            assert_eq!(transpose_host(&t, cols, rows), a);
        }
    }

    #[test]
    fn launch_configs_cover_the_matrix() {
        let all = [Elem::F32, Elem::F16]
            .into_iter()
            .flat_map(|e| Transpose::all_for(e).into_iter().map(move |t| (e, t)));
        for (elem, t) in all {
            for (rows, cols) in [(1u32, 1u32), (31, 33), (4097, 1023), (16384, 16384)] {
                let cfg = t.launch_config(elem, rows, cols).unwrap();
                if let Transpose::Classic(Classic::CopyVec16, _) = t {
                    let threads =
                        cfg.grid_dim.0 as u64 * (cfg.block_dim.0 * cfg.block_dim.1) as u64;
                    let vectors = (rows as u64 * cols as u64).div_ceil(16 / elem.bytes() as u64);
                    assert!(
                        threads >= vectors && threads - vectors < 256,
                        "{t} {rows}x{cols}"
                    );
                    continue;
                }
                let (gx, gy, _) = cfg.grid_dim;
                let (bx, by, _) = cfg.block_dim;
                let (w, h) = match t {
                    Transpose::Classic(s, _) if s.over_output() => (rows, cols),
                    _ => (cols, rows),
                };
                let per_x = match t {
                    Transpose::Classic(s, _) => bx * s.unroll(),
                    Transpose::Smem(spec) => spec.tile,
                };
                let per_y = match t {
                    Transpose::Classic(..) => by,
                    Transpose::Smem(spec) => spec.tile,
                };
                assert!(
                    gx * per_x >= w && gy * per_y >= h,
                    "{t} {rows}x{cols}: {cfg:?}"
                );
                assert!(
                    (gx - 1) * per_x < w && (gy - 1) * per_y < h,
                    "{t} {rows}x{cols}: too many blocks"
                );
            }
        }
    }

    #[test]
    fn sources_name_their_spec() {
        let t = Transpose::Smem(smem::SPECS[0]);
        let (src, opts) = t.source(Elem::F32);
        assert!(src.text.contains("transposeSmem"));
        assert_eq!(opts, vec!["-DSMEM_KERNEL=1".to_string()]);
        let h = &src.headers[0].text;
        assert!(h.contains("struct Spec {"), "{h}");
        assert!(h.contains("static constexpr int TILE = 32;"), "{h}");
        assert!(
            h.contains("using Smem = swz::Layout<32, 32, 4, false, swz::Swizzle<0, 0, 0>, 4, 0>;"),
            "{h}"
        );
        assert!(h.contains("struct Order {"), "{h}");
    }
}
