//! Matrix transpose: the transpose article's kernels and the shared-memory tiled transposes, from
//! `transpose.cu` beside this file.
//!
//! Convention: the input is `rows x cols` row-major (`ny = rows`, `nx = cols` in the CUDA source); the output is
//! its transpose, `cols x rows`. A variant is a [`Transpose`] value: one of the article's kernels with a block shape, or a
//! [`SmemSpec`] (tile, vector width, padding, swizzle). Specs become `-D` options and the generated header; the
//! `.cu` file is shared by all of them. Every launch goes through the frame ([`family::TRANSPOSE`]:
//! `Family::prepared`, verified by [`crate::frame::verify`]).

pub mod family;
pub mod smem;

use crate::elem::Elem;
use crate::runtime::{Error, Header, Result, Source};
use cudarc::driver::LaunchConfig;
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
    pub const fn over_output(self) -> bool {
        matches!(
            self,
            Classic::NaiveCol | Classic::Unroll4Col | Classic::DiagonalCol
        )
    }

    /// Elements each thread moves along x (4 for the `Unroll4` kernels, else 1).
    pub const fn unroll(self) -> u32 {
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
                .doc(format!("the transpose article's kernels on {elem}"))
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

    /// The launch configuration for a `rows x cols` input of `elem`: an error for an element type the variant's
    /// spec is not for, or a shape it cannot run.
    pub fn launch_config(&self, elem: Elem, rows: u32, cols: u32) -> Result<LaunchConfig> {
        if let Some(e) = self.elem() {
            if e != elem {
                return Err(Error::Invalid(format!(
                    "{} is a {e} kernel, called with {elem}",
                    self.name()
                )));
            }
        }
        if rows == 0 || cols == 0 {
            return Err(Error::Invalid(format!(
                "{}: empty {rows}x{cols} matrix",
                self.name()
            )));
        }
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

    /// The simple 16-byte copy kernel, the in-process reference beside the D2D copy.
    pub const COPY_VEC16: Transpose = Transpose::Classic(Classic::CopyVec16, (256, 1));

    /// The article's eight kernels at one block shape.
    pub fn classics(block: (u32, u32)) -> Vec<Transpose> {
        Classic::ALL
            .iter()
            .map(|s| Transpose::Classic(*s, block))
            .collect()
    }

    /// Every shipped variant that runs on `elem`: the article's kernels at every block shape of [`CLASSIC_BLOCKS`], the 16-byte
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
