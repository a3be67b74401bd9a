//! Exhaustive raster properties: on every tile grid up to 32x32 and every parameter up to 16, each order maps the
//! active launch bids one-to-one onto the tile grid, `bid_of` inverts `tile_of`, and `tile_of` agrees with an
//! independent reference written from the sources (CUTLASS, Triton, the articles) or by plain enumeration.
//!
//! Grids are spread over threads so the debug build stays within a few seconds.
mod common;
use common::swizzle_idx;
use swizzle_core::raster::{Grid, Raster, RasterError};

const MAX_SIDE: u32 = 32;
const MAX_PARAM: u32 = 16;

// ---- references -------------------------------------------------------------------------------------------------

/// CUTLASS 2.x GemmIdentityThreadblockSwizzle: `get_tile_offset(log_tile)` on the launch block `(bx, by)`, plus the
/// kernel's early return for `n >= n_tiles`. m = our x, n = our y.
fn cutlass_ref(bx: u64, by: u64, n_tiles: u64, log_tile: u64) -> Option<(u64, u64)> {
    let m = bx >> log_tile;
    let n = (by << log_tile) + (bx & ((1 << log_tile) - 1));
    (n < n_tiles).then_some((m, n))
}

/// The Triton matmul tutorial's grouped ordering, as written there (`num_pid_m` = our gy, `num_pid_n` = gx).
fn triton_ref(pid: u64, num_pid_m: u64, num_pid_n: u64, group_size_m: u64) -> (u64, u64) {
    let num_pid_in_group = group_size_m * num_pid_n;
    let group_id = pid / num_pid_in_group;
    let first_pid_m = group_id * group_size_m;
    let group_size_m = (num_pid_m - first_pid_m).min(group_size_m);
    let pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
    let pid_n = (pid % num_pid_in_group) / group_size_m;
    (pid_n, pid_m)
}

/// Serpentine by enumeration: panels of `panel` columns left to right, rows top-down in even panels and bottom-up
/// in odd ones, columns left to right inside a row.
fn serpentine_ref(gx: u32, gy: u32, panel: u32) -> Vec<(u32, u32)> {
    let mut order = Vec::new();
    for (p, x0) in (0..gx).step_by(panel as usize).enumerate() {
        let cols = x0..(x0 + panel).min(gx);
        let rows: Vec<u32> = if p % 2 == 0 {
            (0..gy).collect()
        } else {
            (0..gy).rev().collect()
        };
        for y in rows {
            order.extend(cols.clone().map(|x| (x, y)));
        }
    }
    order
}

/// Morton by recursion on quadrants (TL, TR, BL, BR) of each square; a non-square power-of-two grid is a row (or
/// column) of squares taken in order.
fn morton_ref(gx: u32, gy: u32) -> Vec<(u32, u32)> {
    fn square(x0: u32, y0: u32, side: u32, out: &mut Vec<(u32, u32)>) {
        if side == 1 {
            out.push((x0, y0));
            return;
        }
        let h = side / 2;
        for (dx, dy) in [(0, 0), (h, 0), (0, h), (h, h)] {
            square(x0 + dx, y0 + dy, h, out);
        }
    }
    let side = gx.min(gy);
    let mut out = Vec::new();
    if gx >= gy {
        (0..gx / side).for_each(|i| square(i * side, 0, side, &mut out));
    } else {
        (0..gy / side).for_each(|i| square(0, i * side, side, &mut out));
    }
    out
}

/// The transpose article, with `% gridDim.x`: `block_y = blockIdx.y; block_x = (blockIdx.x + blockIdx.y) % gx`.
fn diagonal_ref(bx: u32, by: u32, gx: u32) -> (u32, u32) {
    ((bx + by) % gx, by)
}

/// The reference tile of launch `bid`, or `None` if idle.
fn reference(r: Raster, bid: u32, g: Grid, order: &[(u32, u32)]) -> Option<(u32, u32)> {
    let (gx, gy) = (g.x as u64, g.y as u64);
    let b = bid as u64;
    let narrow = |(x, y): (u64, u64)| Some((x as u32, y as u32));
    match r {
        Raster::Identity => narrow((b % gx, b / gx)),
        Raster::Strip { tile } => narrow(swizzle_idx::strip_fixed(b, gx, gy, tile as u64)),
        Raster::Cutlass { log_tile } => {
            let launch_x = gx << log_tile;
            cutlass_ref(b % launch_x, b / launch_x, gy, log_tile as u64).and_then(narrow)
        }
        Raster::GroupM { group } => narrow(triton_ref(b, gy, gx, group as u64)),
        Raster::Serpentine { .. } | Raster::Morton => Some(order[bid as usize]),
        Raster::Diagonal => Some(diagonal_ref(bid % g.x, bid / g.x, g.x)),
        other => panic!("no reference for the raster order {other}: add one here"),
    }
}

// ---- the property -----------------------------------------------------------------------------------------------

/// Every active launch bid hits a distinct tile, every tile is hit, `bid_of` inverts, the reference agrees.
fn check(r: Raster, g: Grid) {
    let launch = r.launch_grid(g);
    assert_eq!(
        launch == g,
        !matches!(r, Raster::Cutlass { log_tile: 1.. }),
        "{r} on {g}: launch grid {launch}"
    );
    let order = match r {
        Raster::Serpentine { panel } => serpentine_ref(g.x, g.y, panel),
        Raster::Morton => morton_ref(g.x, g.y),
        _ => Vec::new(),
    };
    let mut seen = vec![false; g.blocks() as usize];
    let mut active = 0u64;
    let launched = launch.blocks() as u32;
    for bid in 0..launched {
        let t = r.tile_of(bid, g);
        assert_eq!(
            t,
            reference(r, bid, g, &order),
            "{r} on {g}: bid {bid} differs from the reference"
        );
        let Some((x, y)) = t else { continue };
        assert!(
            x < g.x && y < g.y,
            "{r} on {g}: bid {bid} -> ({x}, {y}) outside the grid"
        );
        let cell = &mut seen[(y * g.x + x) as usize];
        assert!(
            !*cell,
            "{r} on {g}: tile ({x}, {y}) computed twice (again by bid {bid})"
        );
        *cell = true;
        assert_eq!(r.bid_of(x, y, g), bid, "{r} on {g}: bid_of({x}, {y})");
        active += 1;
    }
    assert_eq!(active, g.blocks(), "{r} on {g}: not every tile is computed");
    assert_eq!(
        r.tile_of(launched, g),
        None,
        "{r} on {g}: a bid past the launch grid must be idle"
    );
}

/// Runs `f` on every grid `1..=max_x` x `1..=max_y`, spread over the available cores.
fn for_all_grids(max_x: u32, max_y: u32, f: impl Fn(Grid) + Sync) {
    let grids: Vec<Grid> = (1..=max_y)
        .flat_map(|y| (1..=max_x).map(move |x| Grid::new(x, y)))
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    std::thread::scope(|s| {
        for chunk in grids.chunks(grids.len().div_ceil(threads)) {
            let f = &f;
            s.spawn(move || chunk.iter().for_each(|&g| f(g)));
        }
    });
}

#[test]
fn parameterless_orders_are_bijections() {
    for_all_grids(MAX_SIDE, MAX_SIDE, |g| {
        check(Raster::Identity, g);
        check(Raster::Diagonal, g);
        if g.x.is_power_of_two() && g.y.is_power_of_two() {
            check(Raster::Morton, g);
        } else {
            assert_eq!(
                Raster::Morton.validate(g),
                Err(RasterError::MortonNotPowerOfTwo { grid: g })
            );
            assert_eq!(Raster::Morton.tile_of(0, g), None);
        }
    });
}

#[test]
fn strip_group_m_serpentine_are_bijections_for_every_parameter() {
    for_all_grids(MAX_SIDE, MAX_SIDE, |g| {
        for p in 1..=MAX_PARAM {
            check(Raster::Strip { tile: p }, g);
            check(Raster::GroupM { group: p }, g);
            check(Raster::Serpentine { panel: p }, g);
        }
    });
}

/// CUTLASS launches `2^log_tile` times more columns; once `2^log_tile >= gy` a larger `log_tile` only adds idle
/// blocks, so this sweep stops at 8 (launch rows of 8 x 32 x 2^8); `cutlass_large_log_tile_on_every_grid` does 9..=16.
#[test]
fn cutlass_is_a_bijection_with_idle_padding() {
    for_all_grids(MAX_SIDE, MAX_SIDE, |g| {
        (0..=8).for_each(|lt| check(Raster::Cutlass { log_tile: lt }, g))
    });
    for_all_grids(4, 4, |g| {
        (9..=16).for_each(|lt| check(Raster::Cutlass { log_tile: lt }, g))
    });
}

#[test]
fn trivial_parameters_are_the_identity() {
    for_all_grids(MAX_SIDE, MAX_SIDE, |g| {
        for bid in 0..g.blocks() as u32 {
            let id = Raster::Identity.tile_of(bid, g);
            assert_eq!(Raster::Cutlass { log_tile: 0 }.tile_of(bid, g), id);
            assert_eq!(Raster::GroupM { group: 1 }.tile_of(bid, g), id);
            assert_eq!(Raster::Strip { tile: g.x }.tile_of(bid, g), id);
            assert_eq!(Raster::Strip { tile: g.x + 7 }.tile_of(bid, g), id);
            // strip of width 1 is column-major
            assert_eq!(
                Raster::Strip { tile: 1 }.tile_of(bid, g),
                Some((bid / g.y, bid % g.y))
            );
        }
    });
}

#[test]
fn errors_are_clear() {
    let g = Grid::new(4, 4);
    let e = Raster::Strip { tile: 0 }.validate(g).unwrap_err();
    assert_eq!(e.to_string(), "strip: tile must be >= 1");
    let e = Raster::Cutlass { log_tile: 17 }.validate(g).unwrap_err();
    assert_eq!(
        e.to_string(),
        "log_tile must be <= 16 (CUTLASS uses 0..=3) (got 17)"
    );
    let e = Raster::Morton.validate(Grid::new(6, 4)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "morton needs a grid whose sides are powers of two (got 6x4)"
    );
    let e = Raster::Identity.validate(Grid::new(0, 4)).unwrap_err();
    assert_eq!(e.to_string(), "the grid must be at least 1x1 (got 0x4)");
    let e = Raster::Cutlass { log_tile: 16 }
        .validate(Grid::new(1 << 16, 1))
        .unwrap_err();
    assert!(matches!(e, RasterError::LaunchTooLarge { .. }), "{e}");
    assert!(Raster::Identity.validate(Grid::new(65536, 65535)).is_ok());
    assert!(Raster::Identity.validate(Grid::new(65536, 65536)).is_err());
    // Out-of-range work is idle rather than a panic.
    assert_eq!(Raster::Strip { tile: 0 }.tile_of(0, g), None);
}

#[test]
fn large_grids_do_not_overflow() {
    // Sides near the limits, a few bids at both ends of the launch.
    let cases = [
        (Raster::Strip { tile: 3 }, Grid::new(65535, 65535)),
        (Raster::GroupM { group: 8 }, Grid::new(65535, 65535)),
        (Raster::Serpentine { panel: 5 }, Grid::new(65535, 65535)),
        (Raster::Diagonal, Grid::new((1 << 31) - 1, 2)),
        (Raster::Morton, Grid::new(1 << 16, 1 << 15)),
        (Raster::Cutlass { log_tile: 3 }, Grid::new(8191, 65535)),
    ];
    for (r, g) in cases {
        let n = r.launch_grid(g).blocks() as u32;
        for bid in (0..64).chain(n - 64..n) {
            if let Some((x, y)) = r.tile_of(bid, g) {
                assert_eq!(r.bid_of(x, y, g), bid, "{r} on {g}");
            }
        }
    }
}

#[test]
fn display_and_parse_round_trip() {
    // Each order, in `Raster::NAMES` order, with the text it shows as.
    let all = [
        (Raster::Identity, "identity"),
        (Raster::Strip { tile: 4 }, "strip(tile=4)"),
        (Raster::Cutlass { log_tile: 2 }, "cutlass(log_tile=2)"),
        (Raster::GroupM { group: 8 }, "group-m(group=8)"),
        (Raster::Serpentine { panel: 3 }, "serpentine(panel=3)"),
        (Raster::Morton, "morton"),
        (Raster::Diagonal, "diagonal"),
    ];
    for (i, &(r, shown)) in all.iter().enumerate() {
        assert_eq!(r.to_string(), shown);
        assert_eq!(shown.parse::<Raster>().as_ref(), Ok(&r));
        assert_eq!(r.name(), Raster::NAMES[i]);
        let colon = match r.param() {
            Some((_, p)) => format!("{}:{p}", r.name()),
            None => r.name().to_string(),
        };
        assert_eq!(colon.parse::<Raster>().as_ref(), Ok(&r));
    }
    for bad in [
        "zigzag",
        "strip",
        "morton:2",
        "strip:x",
        "strip:-1",
        "strip(panel=2)",
        "strip:0",
        "cutlass:17",
    ] {
        assert!(bad.parse::<Raster>().is_err(), "{bad} should not parse");
    }
    assert_eq!(
        "zigzag".parse::<Raster>().unwrap_err().to_string(),
        "unknown raster order \"zigzag\" (expected one of: identity, strip, cutlass, group-m, serpentine, morton, \
         diagonal)"
    );
}

/// The rest of the CUTLASS domain: log_tile 9..=16 on every grid up to 32x32 (about 2.2e9 launch blocks, mostly
/// idle padding; the test profile optimises this crate, see the root Cargo.toml).
#[test]
fn cutlass_large_log_tile_on_every_grid() {
    for_all_grids(MAX_SIDE, MAX_SIDE, |g| {
        (9..=16).for_each(|lt| check(Raster::Cutlass { log_tile: lt }, g))
    });
}
