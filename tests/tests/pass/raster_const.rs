//! `#[raster]` on kernel descriptors; every generated item is usable in const contexts.
use swizzle_core::raster;
use swizzle_core::raster::{Grid, Raster};

/// Strip of 4 columns (a parameter key alone names its order).
#[raster(tile = 4)]
struct GemmKernel;

#[raster(order = cutlass, log_tile = 1)]
pub struct CutlassGemm(#[allow(dead_code)] u32);

/// The documented spelling, as the CLI and `Display` write it: `group-m(group=8)`.
#[raster(order = group-m, group = 8)]
struct TritonGemm<T: Copy> {
    #[allow(dead_code)]
    scale: T,
}

/// The older attribute spelling is still accepted: `group_m` for the order and for its key.
#[raster(order = group_m, group_m = 4)]
struct TritonGemm4;

/// A `group` key alone names `group-m`.
#[raster(group = 2)]
struct TritonGemm2;

#[raster(order = serpentine, panel = 2)]
struct Snake;

#[raster(order = morton)]
struct ZKernel;

#[raster(order = diagonal)]
struct Transpose;

#[raster(order = identity)]
struct Plain;

const G: Grid = Grid::new(5, 3);

const _: () = assert!(matches!(GemmKernel::RASTER, Raster::Strip { tile: 4 }));
const _: () = assert!(matches!(GemmKernel::tile_of(12, G), Some((4, 0)))); // residual strip starts at bid 12
const _: () = assert!(GemmKernel::bid_of(4, 0, G) == 12);
const _: () = assert!(GemmKernel::validate(G).is_ok());

const CUTLASS_LAUNCH: Grid = CutlassGemm::launch_grid(G);
const _: () = assert!(CUTLASS_LAUNCH.x == 10 && CUTLASS_LAUNCH.y == 2);
const _: () = assert!(CutlassGemm::tile_of(11, G).is_none()); // padding: row 3 of a 3-row grid
const _: () = assert!(matches!(CutlassGemm::tile_of(1, G), Some((0, 1))));

const _: () = assert!(matches!(
    TritonGemm::<f32>::RASTER,
    Raster::GroupM { group: 8 }
));
const _: () = assert!(matches!(TritonGemm::<f32>::tile_of(1, G), Some((0, 1))));
const _: () = assert!(matches!(TritonGemm4::RASTER, Raster::GroupM { group: 4 }));
const _: () = assert!(matches!(TritonGemm2::RASTER, Raster::GroupM { group: 2 }));
const _: () = assert!(matches!(Snake::tile_of(6, Grid::new(4, 3)), Some((2, 2))));
// Grid rules are checked where the grid is known: Morton needs power-of-two sides (`bid_of` on such a grid
// panics, a compile error in a const; not a UI case because rustc's const-eval notes vary with the crate graph).
const _: () = assert!(ZKernel::validate(G).is_err() && ZKernel::validate(Grid::new(4, 2)).is_ok());
const _: () = assert!(ZKernel::bid_of(2, 1, Grid::new(4, 2)) == 6);
const _: () = assert!(matches!(
    Transpose::tile_of(3, Grid::new(3, 2)),
    Some((1, 1))
));
const _: () = assert!(matches!(Plain::tile_of(7, G), Some((2, 1))));

/// A table built at compile time: which tile each launch block computes.
const TABLE: [(u32, u32); 15] = {
    let mut t = [(0, 0); 15];
    let mut bid = 0;
    while bid < 15 {
        t[bid as usize] = match GemmKernel::tile_of(bid, G) {
            Some(xy) => xy,
            None => panic!("strip has no idle blocks"),
        };
        bid += 1;
    }
    t
};

fn main() {
    assert_eq!(TABLE[12], (4, 0));
    assert_eq!(GemmKernel::RASTER.to_string(), "strip(tile=4)");
    assert_eq!(CutlassGemm::RASTER.to_string(), "cutlass(log_tile=1)");
    let _ = (
        CutlassGemm(0),
        TritonGemm { scale: 1.0f32 },
        GemmKernel,
        TritonGemm4,
        TritonGemm2,
        Snake,
        ZKernel,
        Transpose,
        Plain,
    );
}
