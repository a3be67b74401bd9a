//! Threadblock orders (rasters): which output tile the block launched `bid`-th computes.
//!
//! The hardware hands blocks to SMs in launch order, `bid = blockIdx.y * gridDim.x + blockIdx.x`. A raster
//! reinterprets that number so that blocks running at the same time touch nearby tiles (L2 reuse). Every order here
//! is a bijection from the active launch bids onto the tile grid; [`Raster::bid_of`] is the inverse.
//!
//! Coordinates: a tile is `(x, y)` in a `gx x gy` tile grid ([`Grid`]); `x` is the fast coordinate of the row-major
//! launch (the column, the N dimension of a row-major `C = A * B`), `y` the row (M). Identity is therefore
//! `(bid % gx, bid / gx)`. Exception, kept to match the source: CUTLASS calls our `x` "m" (see [`Raster::Cutlass`]).
//!
//! `swizzle_core::raster` re-exports this module, and `swizzle-macros` reads it while it expands `#[raster(...)]`,
//! so the attribute reports the very same parameter errors ([`Raster::validate_params`]) with a span.
//!
//! Each order is one `*_tile_of` function with its C++ twin (`CUDA_*`, emitted into the header by `swizzle_core::cuda`)
//! right below it: change both together. The header's host test compiles the C++ and compares it with these
//! functions on every grid up to 32x32.

#[cfg(feature = "alloc")]
use alloc::{
    format,
    string::{String, ToString},
    vec,
    vec::Vec,
};
use core::fmt;
#[cfg(feature = "alloc")]
use core::str::FromStr;

/// A tile (or launch) grid, `x` by `y` blocks.
///
/// ```
/// use swizzle_spec::raster::Grid;
/// let g: Grid = "8x4".parse().unwrap();
/// assert_eq!(g, Grid::new(8, 4));
/// assert_eq!(g.to_string(), "8x4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Width: number of tiles along x (`gridDim.x` for the identity launch).
    pub x: u32,
    /// Height: number of tiles along y.
    pub y: u32,
}

impl Grid {
    /// A `x` by `y` grid.
    pub const fn new(x: u32, y: u32) -> Grid {
        Grid { x, y }
    }

    /// Number of blocks, `x * y`, without overflow.
    pub const fn blocks(&self) -> u64 {
        self.x as u64 * self.y as u64
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.x, self.y)
    }
}

#[cfg(feature = "alloc")]
impl FromStr for Grid {
    type Err = String;

    /// Parses `GXxGY`, e.g. `32x8`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("expected a grid as GXxGY (e.g. 32x8), got {s:?}");
        let (x, y) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        Ok(Grid::new(
            x.trim().parse().map_err(|_| bad())?,
            y.trim().parse().map_err(|_| bad())?,
        ))
    }
}

/// Largest `log_tile` for [`Raster::Cutlass`]. CUTLASS itself uses 0..=3 (tiles of 1, 2, 4, 8 rows).
pub const MAX_LOG_TILE: u32 = 16;

/// Largest side of a launch grid: CUDA's `gridDim.x` limit, `2^31 - 1`. Keeps `bx + by` and friends in `u32`.
pub const MAX_GRID_SIDE: u32 = (1 << 31) - 1;

/// A threadblock order. `Copy` and `const`: build it in a `const`, query it in `const fn`s.
///
/// ```
/// use swizzle_spec::raster::{Grid, Raster};
/// const R: Raster = Raster::Strip { tile: 2 };
/// const G: Grid = Grid::new(3, 2);
/// // Strips of 2 columns, row-major inside a strip, then the 1-column residual strip:
/// //   0 1 | 4        launch bid at each tile
/// //   2 3 | 5
/// const T: Option<(u32, u32)> = R.tile_of(4, G);
/// assert_eq!(T, Some((2, 0)));
/// assert_eq!(R.bid_of(2, 0, G), 4);
/// assert_eq!(R.to_string(), "strip(tile=2)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Raster {
    /// Row-major: `(bid % gx, bid / gx)`.
    Identity,
    /// Vertical strips of `tile` columns, row-major inside a strip, strips left to right; a last, narrower
    /// "residual" strip when `gx % tile != 0`. The algorithm of `get_swizzle_idx` (Locality-Aware CTA Scheduling,
    /// Alg. 1), with its `/ gridDim.y` bug fixed. See [`strip_tile_of`].
    Strip {
        /// Strip width in tiles (>= 1).
        tile: u32,
    },
    /// CUTLASS 2.x `GemmIdentityThreadblockSwizzle<1 << log_tile>`; launches a wider, shorter grid and leaves
    /// padding blocks idle. See [`cutlass_tile_of`].
    Cutlass {
        /// log2 of CUTLASS's tile (0..=[`MAX_LOG_TILE`]).
        log_tile: u32,
    },
    /// Triton's grouped ordering (`tl.swizzle2d`, the matmul tutorial's `GROUP_SIZE_M`): bands of `group` rows,
    /// column-major inside a band. See [`group_m_tile_of`].
    GroupM {
        /// Rows per band (>= 1), Triton's `GROUP_SIZE_M`.
        group: u32,
    },
    /// [`Raster::Strip`] with every odd strip walked bottom-to-top (boustrophedon), so consecutive strips meet
    /// at the same rows. See [`serpentine_tile_of`].
    Serpentine {
        /// Strip width in tiles (>= 1).
        panel: u32,
    },
    /// Z-order (Morton) on power-of-two grids. See [`morton_tile_of`].
    Morton,
    /// Diagonal reindexing of the transpose article: `x = (bx + by) % gx`, `y = by`. See [`diagonal_tile_of`].
    Diagonal,
}

/// Why a raster cannot run on a grid (or has a bad parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RasterError {
    /// `tile`, `group` or `panel` is 0.
    ZeroParameter {
        /// The order's name.
        order: &'static str,
        /// The parameter's name.
        param: &'static str,
    },
    /// `log_tile > MAX_LOG_TILE`.
    LogTileTooLarge {
        /// The value given.
        log_tile: u32,
    },
    /// A grid side is 0.
    EmptyGrid {
        /// The grid given.
        grid: Grid,
    },
    /// The launch grid has a side above `MAX_GRID_SIDE` or more than `u32::MAX` blocks.
    LaunchTooLarge {
        /// The launch grid the order would need.
        launch: Grid,
    },
    /// Morton needs power-of-two sides.
    MortonNotPowerOfTwo {
        /// The grid given.
        grid: Grid,
    },
}

impl RasterError {
    /// One-line reason, the same text everywhere (macro diagnostics, CLI, `Display`).
    pub const fn message(&self) -> &'static str {
        match self {
            RasterError::ZeroParameter { .. } => "the raster parameter must be >= 1",
            RasterError::LogTileTooLarge { .. } => "log_tile must be <= 16 (CUTLASS uses 0..=3)",
            RasterError::EmptyGrid { .. } => "the grid must be at least 1x1",
            RasterError::LaunchTooLarge { .. } => {
                "the launch grid must have sides < 2^31 and at most u32::MAX blocks"
            }
            RasterError::MortonNotPowerOfTwo { .. } => {
                "morton needs a grid whose sides are powers of two"
            }
        }
    }
}

impl fmt::Display for RasterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RasterError::ZeroParameter { order, param } => {
                write!(f, "{order}: {param} must be >= 1")
            }
            RasterError::LogTileTooLarge { log_tile } => {
                write!(f, "{} (got {log_tile})", self.message())
            }
            RasterError::EmptyGrid { grid } | RasterError::MortonNotPowerOfTwo { grid } => {
                write!(f, "{} (got {grid})", self.message())
            }
            RasterError::LaunchTooLarge { launch } => {
                write!(f, "{} (launch grid {launch})", self.message())
            }
        }
    }
}

impl core::error::Error for RasterError {}

impl Raster {
    /// The CLI names, in the order of the variants.
    pub const NAMES: [&'static str; 7] = [
        "identity",
        "strip",
        "cutlass",
        "group-m",
        "serpentine",
        "morton",
        "diagonal",
    ];

    /// Every order with every parameter up to a bound: the parameter-less orders, CUTLASS with
    /// `log_tile in 0..=max_log_tile`, then strip, group-m and serpentine with each parameter `1..=max_param`.
    /// The sweep the header tests run on the host and on the device.
    ///
    /// ```
    /// use swizzle_spec::raster::Raster;
    /// assert_eq!(Raster::sweep(2, 1).len(), 3 + 2 + 3 * 2);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn sweep(max_param: u32, max_log_tile: u32) -> Vec<Raster> {
        let mut v = vec![Raster::Identity, Raster::Morton, Raster::Diagonal];
        v.extend((0..=max_log_tile).map(|log_tile| Raster::Cutlass { log_tile }));
        for p in 1..=max_param {
            v.extend([
                Raster::Strip { tile: p },
                Raster::GroupM { group: p },
                Raster::Serpentine { panel: p },
            ]);
        }
        v
    }

    /// CLI name: `identity strip cutlass group-m serpentine morton diagonal`.
    pub const fn name(&self) -> &'static str {
        match self {
            Raster::Identity => "identity",
            Raster::Strip { .. } => "strip",
            Raster::Cutlass { .. } => "cutlass",
            Raster::GroupM { .. } => "group-m",
            Raster::Serpentine { .. } => "serpentine",
            Raster::Morton => "morton",
            Raster::Diagonal => "diagonal",
        }
    }

    /// The parameter's name and value: `("tile", 4)` for `strip(tile=4)`; `None` for orders without one.
    pub const fn param(&self) -> Option<(&'static str, u32)> {
        match *self {
            Raster::Strip { tile } => Some(("tile", tile)),
            Raster::Cutlass { log_tile } => Some(("log_tile", log_tile)),
            Raster::GroupM { group } => Some(("group", group)),
            Raster::Serpentine { panel } => Some(("panel", panel)),
            Raster::Identity | Raster::Morton | Raster::Diagonal => None,
        }
    }

    /// The parameter's value, 0 for orders without one: the one number a table of every order, or a kernel
    /// argument, gives for it.
    ///
    /// ```
    /// use swizzle_spec::raster::Raster;
    /// assert_eq!((Raster::Strip { tile: 4 }.param_value(), Raster::Morton.param_value()), (4, 0));
    /// ```
    pub const fn param_value(&self) -> u32 {
        match self.param() {
            Some((_, p)) => p,
            None => 0,
        }
    }

    /// Build from a name (`group-m` or `group_m`) and its parameter.
    ///
    /// ```
    /// use swizzle_spec::raster::Raster;
    /// assert_eq!(Raster::from_parts("group_m", Some(8)), Ok(Raster::GroupM { group: 8 }));
    /// assert!(Raster::from_parts("strip", None).is_err());
    /// ```
    #[cfg(feature = "alloc")]
    pub fn from_parts(name: &str, param: Option<u32>) -> Result<Raster, ParseRasterError> {
        let r = match (name, param) {
            ("identity", None) => Raster::Identity,
            ("morton", None) => Raster::Morton,
            ("diagonal", None) => Raster::Diagonal,
            ("strip", Some(tile)) => Raster::Strip { tile },
            ("cutlass", Some(log_tile)) => Raster::Cutlass { log_tile },
            ("group-m" | "group_m", Some(group)) => Raster::GroupM { group },
            ("serpentine", Some(panel)) => Raster::Serpentine { panel },
            ("identity" | "morton" | "diagonal", Some(_)) => {
                return Err(ParseRasterError::UnexpectedParameter(name.to_string()))
            }
            ("strip" | "cutlass" | "group-m" | "group_m" | "serpentine", None) => {
                return Err(ParseRasterError::MissingParameter(name.to_string()))
            }
            _ => return Err(ParseRasterError::UnknownOrder(name.to_string())),
        };
        r.validate_params().map_err(ParseRasterError::Invalid)?;
        Ok(r)
    }

    /// The checks that need no grid: `tile`, `group`, `panel` >= 1 and `log_tile <= MAX_LOG_TILE`.
    pub const fn validate_params(&self) -> Result<(), RasterError> {
        match *self {
            Raster::Strip { tile: 0 } => Err(RasterError::ZeroParameter {
                order: "strip",
                param: "tile",
            }),
            Raster::GroupM { group: 0 } => Err(RasterError::ZeroParameter {
                order: "group-m",
                param: "group",
            }),
            Raster::Serpentine { panel: 0 } => Err(RasterError::ZeroParameter {
                order: "serpentine",
                param: "panel",
            }),
            Raster::Cutlass { log_tile } if log_tile > MAX_LOG_TILE => {
                Err(RasterError::LogTileTooLarge { log_tile })
            }
            _ => Ok(()),
        }
    }

    /// Can this order run on the tile grid `grid`? Parameters, a non-empty grid, a launch grid that fits in
    /// `u32` bids (sides <= `MAX_GRID_SIDE`), and power-of-two sides for Morton.
    ///
    /// ```
    /// use swizzle_spec::raster::{Grid, Raster, RasterError};
    /// assert!(Raster::Morton.validate(Grid::new(16, 4)).is_ok());
    /// assert!(matches!(Raster::Morton.validate(Grid::new(12, 4)), Err(RasterError::MortonNotPowerOfTwo { .. })));
    /// assert!(matches!(Raster::Strip { tile: 0 }.validate(Grid::new(4, 4)), Err(RasterError::ZeroParameter { .. })));
    /// ```
    pub const fn validate(&self, grid: Grid) -> Result<(), RasterError> {
        if let Err(e) = self.validate_params() {
            return Err(e);
        }
        if grid.x == 0 || grid.y == 0 {
            return Err(RasterError::EmptyGrid { grid });
        }
        // The launch grid in u64, so a too-large one is reported instead of wrapping.
        let (lx, ly) = match *self {
            Raster::Cutlass { log_tile } => (
                (grid.x as u64) << log_tile,
                (grid.y as u64).div_ceil(1u64 << log_tile),
            ),
            _ => (grid.x as u64, grid.y as u64),
        };
        if lx > MAX_GRID_SIDE as u64 || ly > MAX_GRID_SIDE as u64 || lx * ly > u32::MAX as u64 {
            return Err(RasterError::LaunchTooLarge {
                launch: Grid::new(
                    if lx > u32::MAX as u64 {
                        u32::MAX
                    } else {
                        lx as u32
                    },
                    ly as u32,
                ),
            });
        }
        if let Raster::Morton = self {
            if !grid.x.is_power_of_two() || !grid.y.is_power_of_two() {
                return Err(RasterError::MortonNotPowerOfTwo { grid });
            }
        }
        Ok(())
    }

    /// The grid to launch for tile grid `grid`: the tile grid itself, except for CUTLASS
    /// (`(gx << log_tile, ceil(gy / 2^log_tile))`). Panics if `validate(grid)` fails.
    ///
    /// ```
    /// use swizzle_spec::raster::{Grid, Raster};
    /// assert_eq!(Raster::Cutlass { log_tile: 2 }.launch_grid(Grid::new(3, 5)), Grid::new(12, 2));
    /// ```
    pub const fn launch_grid(&self, grid: Grid) -> Grid {
        if let Err(e) = self.validate(grid) {
            panic!("{}", e.message());
        }
        self.launch_grid_unchecked(grid)
    }

    /// [`launch_grid`](Raster::launch_grid) without the check, as the generated header's `launch_grid` computes
    /// it: Morton on a grid that is not a power of two launches the tile grid, every block idle.
    ///
    /// ```
    /// use swizzle_spec::raster::{Grid, Raster};
    /// assert_eq!(Raster::Morton.launch_grid_unchecked(Grid::new(3, 5)), Grid::new(3, 5));
    /// ```
    pub const fn launch_grid_unchecked(&self, grid: Grid) -> Grid {
        match *self {
            Raster::Cutlass { log_tile } => cutlass_launch_grid(grid, log_tile),
            _ => grid,
        }
    }

    /// The tile computed by the block launched `bid`-th (`bid = blockIdx.y * gridDim.x + blockIdx.x` over the
    /// launch grid). `None` for an idle block: CUTLASS padding, a `bid` past the launch grid, or an invalid
    /// raster/grid (see [`Raster::validate`]).
    pub const fn tile_of(&self, bid: u32, grid: Grid) -> Option<(u32, u32)> {
        if self.validate(grid).is_err() {
            return None;
        }
        match *self {
            Raster::Identity => identity_tile_of(bid, grid),
            Raster::Strip { tile } => strip_tile_of(bid, grid, tile),
            Raster::Cutlass { log_tile } => cutlass_tile_of(bid, grid, log_tile),
            Raster::GroupM { group } => group_m_tile_of(bid, grid, group),
            Raster::Serpentine { panel } => serpentine_tile_of(bid, grid, panel),
            Raster::Morton => morton_tile_of(bid, grid),
            Raster::Diagonal => diagonal_tile_of(bid, grid),
        }
    }

    /// The launch bid that computes tile `(x, y)`: the inverse of [`Raster::tile_of`]. Panics if the raster is
    /// invalid on `grid` or the tile lies outside it (a compile error in a `const`).
    pub const fn bid_of(&self, x: u32, y: u32, grid: Grid) -> u32 {
        if let Err(e) = self.validate(grid) {
            panic!("{}", e.message());
        }
        if x >= grid.x || y >= grid.y {
            panic!("bid_of: the tile lies outside the grid");
        }
        match *self {
            Raster::Identity => y * grid.x + x,
            Raster::Strip { tile } => strip_bid_of(x, y, grid, tile),
            Raster::Cutlass { log_tile } => cutlass_bid_of(x, y, grid, log_tile),
            Raster::GroupM { group } => group_m_bid_of(x, y, grid, group),
            Raster::Serpentine { panel } => serpentine_bid_of(x, y, grid, panel),
            Raster::Morton => morton_bid_of(x, y, grid),
            Raster::Diagonal => diagonal_bid_of(x, y, grid),
        }
    }
}

const fn min(a: u32, b: u32) -> u32 {
    if a < b {
        a
    } else {
        b
    }
}

// ------------------------------------------------------------------------------------------------------------------
// The orders. Each `*_tile_of` assumes a grid that passed `Raster::validate` except for the cheap guards it shares
// with its C++ twin (zero sides/parameter, `bid` past the grid): those give `None` / an inactive Tile.
// The C++ functions return `swz::Tile { x, y, active }` with `x = y = 0` when inactive.
// ------------------------------------------------------------------------------------------------------------------

/// Identity: row-major, `(bid % gx, bid / gx)`.
pub const fn identity_tile_of(bid: u32, grid: Grid) -> Option<(u32, u32)> {
    if grid.x == 0 || bid / grid.x >= grid.y {
        return None;
    }
    Some((bid % grid.x, bid / grid.x))
}

/// C++ twin of [`identity_tile_of`].
pub const CUDA_IDENTITY: &str = r#"SWZ_HD constexpr Tile raster_identity(uint32_t bid, uint32_t gx, uint32_t gy) {
    if (gx == 0u || bid / gx >= gy) return Tile{0u, 0u, false};
    return Tile{bid % gx, bid / gx, true};
}"#;

/// Strip (the threadblock-swizzling article's `get_swizzle_idx`): cut the grid into vertical strips `tile` columns wide; number the blocks
/// row-major inside a strip (a strip holds `tile * gy` blocks), strips left to right. When `gx % tile != 0`, the last
/// strip is the residual one, `gx % tile` wide, numbered row-major over its own width. A `tile >= gx` is the
/// identity, `tile == 1` is column-major.
///
/// The article's listing ends with `y = strip_flat_idx / gridDim.y`; the flat index is row-major over `gx`
/// columns, so it must be `/ gridDim.x`. The two agree on square grids only; on others the listing maps two blocks
/// to one tile (tests/tests/raster_listing.rs shows it).
///
/// ```text
///   gx = 5, gy = 2, tile = 2:   0 1 | 4 5 | 8        tile (x, y) <- launch bid
///                               2 3 | 6 7 | 9
/// ```
/// ```
/// use swizzle_spec::raster::{strip_tile_of, Grid};
/// assert_eq!(strip_tile_of(8, Grid::new(5, 2), 2), Some((4, 0)));
/// assert_eq!(strip_tile_of(9, Grid::new(5, 2), 2), Some((4, 1)));
/// ```
pub const fn strip_tile_of(bid: u32, grid: Grid, tile: u32) -> Option<(u32, u32)> {
    let (gx, gy) = (grid.x, grid.y);
    if gx == 0 || tile == 0 || bid / gx >= gy {
        return None;
    }
    // A tile wider than the grid behaves as tile == gx (one strip: the identity); clamping keeps tile * gy in u32.
    let tile = min(tile, gx);
    let cta_in_strip = tile * gy;
    let full_strips = gx / tile;
    let residual_width = gx % tile;
    let strip_id = bid / cta_in_strip;
    let cta_id_in_strip = bid % cta_in_strip;
    let width = if bid < cta_in_strip * full_strips {
        tile
    } else {
        residual_width
    };
    let flat = strip_id * tile + (cta_id_in_strip / width) * gx + cta_id_in_strip % width;
    Some((flat % gx, flat / gx))
}

/// C++ twin of [`strip_tile_of`].
pub const CUDA_STRIP: &str = r#"SWZ_HD constexpr Tile raster_strip(uint32_t bid, uint32_t gx, uint32_t gy, uint32_t tile) {
    if (gx == 0u || tile == 0u || bid / gx >= gy) return Tile{0u, 0u, false};
    if (tile > gx) tile = gx;
    uint32_t cta_in_strip = tile * gy;
    uint32_t full_strips = gx / tile;
    uint32_t residual_width = gx % tile;
    uint32_t strip_id = bid / cta_in_strip;
    uint32_t cta_id_in_strip = bid % cta_in_strip;
    uint32_t width = bid < cta_in_strip * full_strips ? tile : residual_width;
    uint32_t flat = strip_id * tile + (cta_id_in_strip / width) * gx + cta_id_in_strip % width;
    return Tile{flat % gx, flat / gx, true};
}"#;

/// Inverse of [`strip_tile_of`].
pub const fn strip_bid_of(x: u32, y: u32, grid: Grid, tile: u32) -> u32 {
    let tile = min(tile, grid.x);
    let strip_id = x / tile;
    let width = if strip_id < grid.x / tile {
        tile
    } else {
        grid.x % tile
    };
    strip_id * tile * grid.y + y * width + x % tile
}

/// CUTLASS 2.x `GemmIdentityThreadblockSwizzle<N = 2^log_tile>` (include/cutlass/gemm/threadblock/
/// threadblock_swizzle.h). CUTLASS launches `(m_tiles << log_tile, ceil(n_tiles / N))` blocks and maps
/// `(bx, by)` to `m = bx >> log_tile`, `n = (by << log_tile) + (bx & (N - 1))`: each launch row covers `N` rows of
/// tiles, walking down `N` tiles before moving right. Blocks with `n >= n_tiles` return early (idle padding).
///
/// Mapping: CUTLASS's `m` is our `x` and its `n` our `y` (CUTLASS puts m on `blockIdx.x`), so `gx = m_tiles`,
/// `gy = n_tiles`. `log_tile = 0` is the identity.
///
/// ```text
///   gx = 2, gy = 3, log_tile = 1: launch 4x2       launch bid at each tile (x, y); bids 5 and 7 are idle
///     0 2
///     1 3
///     4 6
/// ```
/// ```
/// use swizzle_spec::raster::{cutlass_tile_of, Grid};
/// assert_eq!(cutlass_tile_of(1, Grid::new(2, 3), 1), Some((0, 1)));
/// assert_eq!(cutlass_tile_of(5, Grid::new(2, 3), 1), None);
/// ```
pub const fn cutlass_tile_of(bid: u32, grid: Grid, log_tile: u32) -> Option<(u32, u32)> {
    let (gx, gy) = (grid.x, grid.y);
    if gx == 0 || log_tile > MAX_LOG_TILE {
        return None;
    }
    let mask = (1u32 << log_tile) - 1;
    let launch_x = gx << log_tile;
    let launch_y = (gy >> log_tile) + if gy & mask != 0 { 1 } else { 0 };
    let (bx, by) = (bid % launch_x, bid / launch_x);
    if by >= launch_y {
        return None;
    }
    let x = bx >> log_tile;
    let y = (by << log_tile) + (bx & mask);
    if y >= gy {
        return None;
    }
    Some((x, y))
}

/// C++ twin of [`cutlass_tile_of`]; `gx, gy` are the TILE grid, `bid` runs over the launch grid
/// [`CUDA_CUTLASS_LAUNCH`].
pub const CUDA_CUTLASS: &str = r#"SWZ_HD constexpr Tile raster_cutlass(uint32_t bid, uint32_t gx, uint32_t gy, uint32_t log_tile) {
    if (gx == 0u || log_tile > 16u) return Tile{0u, 0u, false};
    uint32_t mask = (1u << log_tile) - 1u;
    uint32_t launch_x = gx << log_tile;
    uint32_t launch_y = (gy >> log_tile) + ((gy & mask) != 0u ? 1u : 0u);
    uint32_t bx = bid % launch_x, by = bid / launch_x;
    if (by >= launch_y) return Tile{0u, 0u, false};
    uint32_t x = bx >> log_tile;
    uint32_t y = (by << log_tile) + (bx & mask);
    if (y >= gy) return Tile{0u, 0u, false};
    return Tile{x, y, true};
}"#;

/// The launch grid of [`cutlass_tile_of`]: `(gx << log_tile, ceil(gy / 2^log_tile))`.
pub const fn cutlass_launch_grid(grid: Grid, log_tile: u32) -> Grid {
    Grid::new(grid.x << log_tile, grid.y.div_ceil(1 << log_tile))
}

/// C++ twin of [`cutlass_launch_grid`]: the `gridDim` to launch for a CUTLASS-rastered tile grid.
pub const CUDA_CUTLASS_LAUNCH: &str = r#"SWZ_HD constexpr LaunchGrid raster_cutlass_launch(uint32_t gx, uint32_t gy, uint32_t log_tile) {
    uint32_t mask = (1u << log_tile) - 1u;
    return LaunchGrid{gx << log_tile, (gy >> log_tile) + ((gy & mask) != 0u ? 1u : 0u)};
}"#;

/// Inverse of [`cutlass_tile_of`].
pub const fn cutlass_bid_of(x: u32, y: u32, grid: Grid, log_tile: u32) -> u32 {
    let mask = (1u32 << log_tile) - 1;
    let bx = (x << log_tile) | (y & mask);
    let by = y >> log_tile;
    by * (grid.x << log_tile) + bx
}

/// Grouped ordering, exactly Triton's (`tl.swizzle2d`, the matmul tutorial's `GROUP_SIZE_M`) with
/// `pid_m = y`, `pid_n = x`, `num_pid_m = gy`, `num_pid_n = gx`. Bands of `group` rows hold `group * gx` blocks,
/// numbered column-major inside the band (down the band, then the next column); the last band may be shorter
/// (`gy - first_row` rows) and is numbered the same way over its own height. `group = 1` is the identity.
///
/// ```text
///   gx = 3, gy = 3, group = 2:   0 2 4        launch bid at each tile (x, y)
///                                1 3 5
///                                6 7 8        (last band: 1 row)
/// ```
/// ```
/// use swizzle_spec::raster::{group_m_tile_of, Grid};
/// assert_eq!(group_m_tile_of(3, Grid::new(3, 3), 2), Some((1, 1)));
/// assert_eq!(group_m_tile_of(7, Grid::new(3, 3), 2), Some((1, 2)));
/// ```
pub const fn group_m_tile_of(bid: u32, grid: Grid, group: u32) -> Option<(u32, u32)> {
    let (gx, gy) = (grid.x, grid.y);
    if gx == 0 || group == 0 || bid / gx >= gy {
        return None;
    }
    // group >= gy behaves as group == gy (one band); clamping keeps group * gx in u32.
    let group = min(group, gy);
    let num_pid_in_group = group * gx;
    let group_id = bid / num_pid_in_group;
    let first_pid_m = group_id * group;
    let group_size_m = min(gy - first_pid_m, group);
    let pid_in_group = bid % num_pid_in_group;
    Some((
        pid_in_group / group_size_m,
        first_pid_m + pid_in_group % group_size_m,
    ))
}

/// C++ twin of [`group_m_tile_of`].
pub const CUDA_GROUP_M: &str = r#"SWZ_HD constexpr Tile raster_group_m(uint32_t bid, uint32_t gx, uint32_t gy, uint32_t group) {
    if (gx == 0u || group == 0u || bid / gx >= gy) return Tile{0u, 0u, false};
    if (group > gy) group = gy;
    uint32_t num_pid_in_group = group * gx;
    uint32_t group_id = bid / num_pid_in_group;
    uint32_t first_pid_m = group_id * group;
    uint32_t group_size_m = gy - first_pid_m < group ? gy - first_pid_m : group;
    uint32_t pid_in_group = bid % num_pid_in_group;
    return Tile{pid_in_group / group_size_m, first_pid_m + pid_in_group % group_size_m, true};
}"#;

/// Inverse of [`group_m_tile_of`].
pub const fn group_m_bid_of(x: u32, y: u32, grid: Grid, group: u32) -> u32 {
    let group = min(group, grid.y);
    let group_id = y / group;
    let first = group_id * group;
    let size = min(grid.y - first, group);
    group_id * group * grid.x + x * size + (y - first)
}

/// Serpentine (boustrophedon): the strips of [`strip_tile_of`] (panels of `panel` columns, the residual one
/// included), but every odd panel is walked bottom-to-top, so the end of one panel sits next to the start of the
/// next (same rows, the A tiles just loaded). Inside a row, blocks still go left to right.
///
/// ```text
///   gx = 4, gy = 3, panel = 2:   0 1 | 10 11      launch bid at each tile (x, y)
///                                2 3 |  8  9
///                                4 5 |  6  7
/// ```
/// ```
/// use swizzle_spec::raster::{serpentine_tile_of, Grid};
/// assert_eq!(serpentine_tile_of(6, Grid::new(4, 3), 2), Some((2, 2)));
/// ```
pub const fn serpentine_tile_of(bid: u32, grid: Grid, panel: u32) -> Option<(u32, u32)> {
    match strip_tile_of(bid, grid, panel) {
        Some((x, y)) if (x / min(panel, grid.x)) % 2 == 1 => Some((x, grid.y - 1 - y)),
        other => other,
    }
}

/// C++ twin of [`serpentine_tile_of`] (built on `raster_strip`).
pub const CUDA_SERPENTINE: &str = r#"SWZ_HD constexpr Tile raster_serpentine(uint32_t bid, uint32_t gx, uint32_t gy, uint32_t panel) {
    Tile t = raster_strip(bid, gx, gy, panel);
    if (t.active && (t.x / (panel < gx ? panel : gx)) % 2u == 1u) t.y = gy - 1u - t.y;
    return t;
}"#;

/// Inverse of [`serpentine_tile_of`].
pub const fn serpentine_bid_of(x: u32, y: u32, grid: Grid, panel: u32) -> u32 {
    let y = if (x / min(panel, grid.x)) % 2 == 1 {
        grid.y - 1 - y
    } else {
        y
    };
    strip_bid_of(x, y, grid, panel)
}

/// Morton (Z-order) on a `2^a x 2^b` grid. With `s = min(a, b)`, the low `2s` bits of `bid` interleave x and y
/// (x in the even bits: `0 -> (0,0), 1 -> (1,0), 2 -> (0,1), 3 -> (1,1)`); the bits above them are the high bits
/// of the longer side. So a square grid is one Z-curve, and a `2^a x 2^b` grid with `a > b` is a row of
/// `2^(a-b)` Z-curved squares, left to right (`a < b`: a column, top to bottom). Sides that are not powers of two
/// are refused by [`Raster::validate`] and give `None` here.
///
/// ```text
///   gx = 4, gy = 2:   0 1 4 5       launch bid at each tile (x, y)
///                     2 3 6 7
/// ```
/// ```
/// use swizzle_spec::raster::{morton_tile_of, Grid};
/// assert_eq!(morton_tile_of(6, Grid::new(4, 2)), Some((2, 1)));
/// assert_eq!(morton_tile_of(0, Grid::new(6, 2)), None);
/// ```
pub const fn morton_tile_of(bid: u32, grid: Grid) -> Option<(u32, u32)> {
    let (gx, gy) = (grid.x, grid.y);
    if gx == 0 || gy == 0 || gx & (gx - 1) != 0 || gy & (gy - 1) != 0 || bid / gx >= gy {
        return None;
    }
    let (a, b) = (gx.trailing_zeros(), gy.trailing_zeros());
    let s = min(a, b);
    let (mut x, mut y, mut i) = (0u32, 0u32, 0u32);
    while i < s {
        x |= ((bid >> (2 * i)) & 1) << i;
        y |= ((bid >> (2 * i + 1)) & 1) << i;
        i += 1;
    }
    let high = bid >> (2 * s);
    if a >= b {
        Some((x | (high << s), y))
    } else {
        Some((x, y | (high << s)))
    }
}

/// C++ twin of [`morton_tile_of`].
pub const CUDA_MORTON: &str = r#"SWZ_HD constexpr Tile raster_morton(uint32_t bid, uint32_t gx, uint32_t gy) {
    if (gx == 0u || gy == 0u || (gx & (gx - 1u)) != 0u || (gy & (gy - 1u)) != 0u || bid / gx >= gy)
        return Tile{0u, 0u, false};
    uint32_t a = 0u, b = 0u;
    while ((1u << a) < gx) ++a;
    while ((1u << b) < gy) ++b;
    uint32_t s = a < b ? a : b;
    uint32_t x = 0u, y = 0u;
    for (uint32_t i = 0u; i < s; ++i) {
        x |= ((bid >> (2u * i)) & 1u) << i;
        y |= ((bid >> (2u * i + 1u)) & 1u) << i;
    }
    uint32_t high = bid >> (2u * s);
    if (a >= b) x |= high << s; else y |= high << s;
    return Tile{x, y, true};
}"#;

/// Inverse of [`morton_tile_of`].
pub const fn morton_bid_of(x: u32, y: u32, grid: Grid) -> u32 {
    let (a, b) = (grid.x.trailing_zeros(), grid.y.trailing_zeros());
    let s = min(a, b);
    let (mut low, mut i) = (0u32, 0u32);
    while i < s {
        low |= ((x >> i) & 1) << (2 * i);
        low |= ((y >> i) & 1) << (2 * i + 1);
        i += 1;
    }
    let high = if a >= b { x >> s } else { y >> s };
    (high << (2 * s)) | low
}

/// Diagonal (the transpose article): launch block `(bx, by)` computes `x = (bx + by) % gx`, `y = by`.
/// Each row is rotated by its index, so the blocks running together (consecutive bids, one launch row) sit on a
/// diagonal of the tile grid and spread over DRAM partitions. For a fixed `y` the map `bx -> (bx + y) % gx` is a
/// rotation of `0..gx`, so this is a bijection on ANY grid, square or not.
///
/// Note: the article's kernels write `% gridDim.y`, which is only right on square grids (on a wide grid it
/// never reaches the right columns); the formula is `% gridDim.x`. The NVIDIA transpose paper's variant
/// (`y = bx`, `x = (bx + by) % gx`) is a bijection only on square grids, so it is not this order.
///
/// ```text
///   gx = 3, gy = 2:   0 1 2       launch bid at each tile (x, y)
///                     5 3 4
/// ```
/// ```
/// use swizzle_spec::raster::{diagonal_tile_of, Grid};
/// assert_eq!(diagonal_tile_of(3, Grid::new(3, 2)), Some((1, 1)));
/// ```
pub const fn diagonal_tile_of(bid: u32, grid: Grid) -> Option<(u32, u32)> {
    let (gx, gy) = (grid.x, grid.y);
    if gx == 0 || bid / gx >= gy {
        return None;
    }
    let (bx, by) = (bid % gx, bid / gx);
    Some(((bx + by % gx) % gx, by))
}

/// C++ twin of [`diagonal_tile_of`].
pub const CUDA_DIAGONAL: &str = r#"SWZ_HD constexpr Tile raster_diagonal(uint32_t bid, uint32_t gx, uint32_t gy) {
    if (gx == 0u || bid / gx >= gy) return Tile{0u, 0u, false};
    uint32_t bx = bid % gx, by = bid / gx;
    return Tile{(bx + by % gx) % gx, by, true};
}"#;

/// Inverse of [`diagonal_tile_of`].
pub const fn diagonal_bid_of(x: u32, y: u32, grid: Grid) -> u32 {
    let bx = (x + grid.x - y % grid.x) % grid.x;
    y * grid.x + bx
}

/// All C++ raster functions, in dependency order (serpentine calls strip), for the header.
pub const CUDA_FUNCTIONS: [&str; 8] = [
    CUDA_IDENTITY,
    CUDA_STRIP,
    CUDA_CUTLASS,
    CUDA_CUTLASS_LAUNCH,
    CUDA_GROUP_M,
    CUDA_SERPENTINE,
    CUDA_MORTON,
    CUDA_DIAGONAL,
];

impl Raster {
    /// The C++ call that computes this order's tile for `bid` on the tile grid `gx, gy` (argument expressions),
    /// with the parameter baked in: `raster_strip(bid, gx, gy, 4u)`.
    #[cfg(feature = "alloc")]
    pub fn cuda_call(&self, bid: &str, gx: &str, gy: &str) -> String {
        let f = self.cuda_fn();
        match self.param() {
            Some((_, p)) => format!("{f}({bid}, {gx}, {gy}, {p}u)"),
            None => format!("{f}({bid}, {gx}, {gy})"),
        }
    }

    /// Name of the C++ function (in `namespace swz`) for this order.
    pub const fn cuda_fn(&self) -> &'static str {
        match self {
            Raster::Identity => "raster_identity",
            Raster::Strip { .. } => "raster_strip",
            Raster::Cutlass { .. } => "raster_cutlass",
            Raster::GroupM { .. } => "raster_group_m",
            Raster::Serpentine { .. } => "raster_serpentine",
            Raster::Morton => "raster_morton",
            Raster::Diagonal => "raster_diagonal",
        }
    }
}

impl fmt::Display for Raster {
    /// `identity`, `strip(tile=4)`, `cutlass(log_tile=2)`, `group-m(group=8)`, `serpentine(panel=2)`, `morton`,
    /// `diagonal`. [`FromStr`] reads this back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.param() {
            Some((k, v)) => write!(f, "{}({k}={v})", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

/// Why a string is not a raster.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseRasterError {
    /// Not one of `identity strip cutlass group-m serpentine morton diagonal`.
    UnknownOrder(String),
    /// An order that needs a parameter got none.
    MissingParameter(String),
    /// An order without a parameter got one.
    UnexpectedParameter(String),
    /// The parameter is not a non-negative integer, or the text is malformed.
    Syntax(String),
    /// Well-formed, but the parameter is out of range.
    Invalid(RasterError),
}

#[cfg(feature = "alloc")]
impl fmt::Display for ParseRasterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRasterError::UnknownOrder(s) => write!(
                f,
                "unknown raster order {s:?} (expected one of: identity, strip, cutlass, group-m, serpentine, \
                 morton, diagonal)"
            ),
            ParseRasterError::MissingParameter(s) => {
                write!(f, "raster order {s:?} needs a parameter (e.g. {s}:4)")
            }
            ParseRasterError::UnexpectedParameter(s) => write!(f, "raster order {s:?} takes no parameter"),
            ParseRasterError::Syntax(s) => write!(
                f,
                "expected a raster as ORDER, ORDER:PARAM or ORDER(KEY=PARAM) (e.g. strip:4), got {s:?}"
            ),
            ParseRasterError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(feature = "alloc")]
impl core::error::Error for ParseRasterError {}

#[cfg(feature = "alloc")]
impl FromStr for Raster {
    type Err = ParseRasterError;

    /// Parses `ORDER`, `ORDER:PARAM` (`strip:4`) or the `Display` form (`strip(tile=4)`).
    ///
    /// ```
    /// use swizzle_spec::raster::Raster;
    /// assert_eq!("strip:4".parse(), Ok(Raster::Strip { tile: 4 }));
    /// assert_eq!("cutlass(log_tile=2)".parse(), Ok(Raster::Cutlass { log_tile: 2 }));
    /// assert_eq!("morton".parse(), Ok(Raster::Morton));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let syntax = || ParseRasterError::Syntax(s.to_string());
        let (name, param) = if let Some((name, rest)) = t.split_once('(') {
            let inner = rest.strip_suffix(')').ok_or_else(syntax)?;
            let value = match inner.split_once('=') {
                Some((key, v)) => {
                    let expected = Raster::from_parts(name.trim(), Some(1))?
                        .param()
                        .map(|(k, _)| k);
                    if expected != Some(key.trim()) {
                        return Err(syntax());
                    }
                    v
                }
                None => inner,
            };
            (name.trim(), Some(value))
        } else if let Some((name, v)) = t.split_once(':') {
            (name.trim(), Some(v))
        } else {
            (t, None)
        };
        let param = match param {
            Some(v) => Some(v.trim().parse::<u32>().map_err(|_| syntax())?),
            None => None,
        };
        Raster::from_parts(name, param)
    }
}

// Small, self-contained checks next to the code. The exhaustive sweeps (every grid up to 32x32, every parameter up
// to 16, against independent references: the article's listing, CUTLASS, Triton) live in `tests/tests/raster_*.rs`.
#[cfg(test)]
mod tests {
    use super::*;

    /// One order of each kind, spelled as the CLI spells them.
    fn orders() -> Vec<Raster> {
        let spelled = "identity strip:3 cutlass:1 group-m:2 serpentine:2 morton diagonal";
        spelled.split(' ').map(|r| r.parse().unwrap()).collect()
    }

    /// Every active launch bid computes a distinct tile, every tile is computed, `bid_of` inverts `tile_of`.
    #[test]
    fn small_grids_are_covered_exactly_once() {
        for gy in 1..=8 {
            for gx in 1..=8 {
                let g = Grid::new(gx, gy);
                for r in orders() {
                    if r.validate(g).is_err() {
                        assert!(
                            matches!(r, Raster::Morton)
                                && !(gx.is_power_of_two() && gy.is_power_of_two())
                        );
                        continue;
                    }
                    let mut seen = vec![false; (gx * gy) as usize];
                    for bid in 0..r.launch_grid(g).blocks() as u32 {
                        let Some((x, y)) = r.tile_of(bid, g) else {
                            continue;
                        };
                        assert!(!seen[(y * gx + x) as usize], "{r} on {g}: ({x}, {y}) twice");
                        seen[(y * gx + x) as usize] = true;
                        assert_eq!(r.bid_of(x, y, g), bid, "{r} on {g}");
                    }
                    assert!(
                        seen.iter().all(|&s| s),
                        "{r} on {g}: a tile is never computed"
                    );
                }
            }
        }
    }

    /// Worked example of the strip order on a grid whose width is not a multiple of the strip: 5x2 tiles, strips
    /// 2 wide, so the last strip is 1 wide (the article's "residual strip").
    #[test]
    fn strip_walks_strips_then_the_residual() {
        let g = Grid::new(5, 2);
        let order: Vec<_> = (0..10)
            .map(|b| Raster::Strip { tile: 2 }.tile_of(b, g).unwrap())
            .collect();
        assert_eq!(
            order,
            [
                (0, 0),
                (1, 0),
                (0, 1),
                (1, 1),
                (2, 0),
                (3, 0),
                (2, 1),
                (3, 1),
                (4, 0),
                (4, 1)
            ]
        );
    }
}
