//! The generated header (`swizzle_core::cuda`) on the device: compiled by NVRTC for the device's own `sm_XY`
//! (header text prepended, no toolkit includes), kernels evaluate the same tables as the host test, and the
//! results must equal the Rust functions:
//! - `Swizzle<B,M,S>::apply` and its masks for every legal `B <= 3, M <= 4, |S| <= 6`, offsets `0..max(2^12, period)`;
//! - every raster function for every order on every grid up to 32x32 (parameters 1..=8, cutlass log_tile 0..=6),
//!   called with explicit `bid`;
//! - the device conveniences (`launch_bid()`, `raster_*_here`, the named structs' `here()`) in real launches of
//!   the launch grid, on grids up to 9x9.
//!
//! Needs an NVIDIA GPU: `cargo test -p gpu-kernels --test header_device -- --ignored`.
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions};
use std::fmt::Write as _;
use std::sync::Arc;
use swizzle_core::cuda::Header;
use swizzle_core::raster::{Grid, Raster};
use swizzle_core::Swizzle;

const MAX_SIDE: u32 = 32;
const MAX_PARAM: u32 = 8;
const MAX_LOG_TILE: u32 = 6;
/// Grids for the real-launch (`*_here`) checks.
const HERE_SIDE: u32 = 9;

fn legal_swizzles() -> Vec<Swizzle> {
    Swizzle::all_legal(3, 4, 6).collect()
}

fn offsets(sw: &Swizzle) -> u32 {
    (sw.period() as u32).max(1 << 12)
}

/// Every (order, parameter) of the table sweep, with the order's index in the kernel's `switch`.
fn raster_specs() -> Vec<Raster> {
    Raster::sweep(MAX_PARAM, MAX_LOG_TILE)
}

fn order_index(r: &Raster) -> u32 {
    Raster::NAMES.iter().position(|n| *n == r.name()).unwrap() as u32
}

/// What the C++ `Tile` must hold: `tile_of`, and `(0, 0, 0)` for an idle block.
fn expected(r: &Raster, bid: u32, g: Grid) -> [u32; 3] {
    r.tile_of(bid, g).map_or([0, 0, 0], |(x, y)| [x, y, 1])
}

/// Named specs used by the `here()` checks (one per order).
fn named() -> Vec<(&'static str, Raster)> {
    vec![
        ("NIdentity", Raster::Identity),
        ("NStrip", Raster::Strip { tile: 3 }),
        ("NCutlass", Raster::Cutlass { log_tile: 2 }),
        ("NGroupM", Raster::GroupM { group: 2 }),
        ("NSerpentine", Raster::Serpentine { panel: 2 }),
        ("NMorton", Raster::Morton),
        ("NDiagonal", Raster::Diagonal),
    ]
}

fn source() -> String {
    let mut header = Header::new();
    for (name, r) in named() {
        header = header.raster(name, r);
    }
    let mut s = header.render();
    s.push_str(
        r#"
using namespace swz;

template <int B, int M, int S>
__device__ void dump_swizzle(uint32_t* out, uint32_t n, uint32_t* masks) {
    using Sw = Swizzle<B, M, S>;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = Sw::apply(i);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        masks[0] = Sw::bit_msk;
        masks[1] = Sw::yyy_msk;
        masks[2] = Sw::zzz_msk;
        masks[3] = (uint32_t)Sw::msk_sft;
    }
}

__device__ void put(uint32_t* out, uint32_t i, Tile t) {
    out[3 * i] = t.x;
    out[3 * i + 1] = t.y;
    out[3 * i + 2] = t.active ? 1u : 0u;
}

// One block per config: {order, param, gx, gy, launch_x, launch_y, first output index}.
extern "C" __global__ void raster_tables(const uint32_t* configs, uint32_t* out) {
    const uint32_t* c = configs + 7 * blockIdx.x;
    uint32_t order = c[0], p = c[1], gx = c[2], gy = c[3], n = c[4] * c[5], first = c[6];
    for (uint32_t bid = threadIdx.x; bid < n; bid += blockDim.x) {
        Tile t;
        switch (order) {
            case 0: t = raster_identity(bid, gx, gy); break;
            case 1: t = raster_strip(bid, gx, gy, p); break;
            case 2: t = raster_cutlass(bid, gx, gy, p); break;
            case 3: t = raster_group_m(bid, gx, gy, p); break;
            case 4: t = raster_serpentine(bid, gx, gy, p); break;
            case 5: t = raster_morton(bid, gx, gy); break;
            default: t = raster_diagonal(bid, gx, gy); break;
        }
        put(out, first + bid, t);
    }
}

// Real launches: one thread per block writes its launch_bid() and its tile.
__device__ void here_put(uint32_t* out, Tile t) {
    if (threadIdx.x != 0) return;
    uint32_t bid = launch_bid();
    out[4 * bid] = bid == blockIdx.y * gridDim.x + blockIdx.x ? 1u : 0u;
    out[4 * bid + 1] = t.x;
    out[4 * bid + 2] = t.y;
    out[4 * bid + 3] = t.active ? 1u : 0u;
}
extern "C" __global__ void here_identity(uint32_t* out, uint32_t) { here_put(out, raster_identity_here()); }
extern "C" __global__ void here_strip(uint32_t* out, uint32_t p) { here_put(out, raster_strip_here(p)); }
extern "C" __global__ void here_group_m(uint32_t* out, uint32_t p) { here_put(out, raster_group_m_here(p)); }
extern "C" __global__ void here_serpentine(uint32_t* out, uint32_t p) { here_put(out, raster_serpentine_here(p)); }
extern "C" __global__ void here_morton(uint32_t* out, uint32_t) { here_put(out, raster_morton_here()); }
extern "C" __global__ void here_diagonal(uint32_t* out, uint32_t) { here_put(out, raster_diagonal_here()); }
extern "C" __global__ void here_cutlass(uint32_t* out, uint32_t gx, uint32_t gy, uint32_t lt) {
    here_put(out, raster_cutlass_here(gx, gy, lt));
}
extern "C" __global__ void named_here(uint32_t* out, uint32_t which, uint32_t gx, uint32_t gy) {
    Tile t;
    switch (which) {
        case 0: t = NIdentity::here(); break;
        case 1: t = NStrip::here(); break;
        case 2: t = NCutlass::here(gx, gy); break;
        case 3: t = NGroupM::here(); break;
        case 4: t = NSerpentine::here(); break;
        case 5: t = NMorton::here(); break;
        default: t = NDiagonal::here(); break;
    }
    here_put(out, t);
}
"#,
    );
    // The swizzle kernel: one call per legal spec, each into its own slice of `out` and `masks`.
    s.push_str("\nextern \"C\" __global__ void swizzle_tables(uint32_t* out, uint32_t* masks) {\n");
    let mut at = 0u32;
    for (i, sw) in legal_swizzles().iter().enumerate() {
        let n = offsets(sw);
        writeln!(
            s,
            "    dump_swizzle<{}, {}, {}>(out + {at}u, {n}u, masks + {}u);",
            sw.bits,
            sw.base,
            sw.shift,
            4 * i
        )
        .unwrap();
        at += n;
    }
    s.push_str("}\n");
    s
}

struct Device {
    stream: Arc<CudaStream>,
    module: Arc<cudarc::driver::CudaModule>,
}

impl Device {
    fn open() -> Device {
        assert!(
            gpu_kernels::gpu_available(),
            "header_device needs an NVIDIA GPU and driver (libcuda could not be loaded); run it on the device machine"
        );
        let ctx = CudaContext::new(0).expect("open GPU 0");
        let (major, minor) = ctx.compute_capability().expect("compute capability");
        let arch: &'static str = Box::leak(format!("sm_{major}{minor}").into_boxed_str());
        let opts = CompileOptions {
            arch: Some(arch),
            options: vec!["-std=c++17".to_string()],
            name: Some("header_device.cu".to_string()),
            ..Default::default()
        };
        let ptx = compile_ptx_with_opts(source(), opts)
            .unwrap_or_else(|e| panic!("NVRTC ({arch}) rejected the header + test kernels: {e:?}"));
        let module = ctx.load_module(ptx).expect("load module");
        let stream = ctx.default_stream();
        Device { stream, module }
    }

    fn function(&self, name: &str) -> CudaFunction {
        self.module
            .load_function(name)
            .unwrap_or_else(|e| panic!("load {name}: {e:?}"))
    }
}

fn cfg(grid: (u32, u32), block: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (grid.0, grid.1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

fn report(what: &str, mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{what}: {} mismatches between the device and Rust, e.g.:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn swizzle_on_device_matches_rust() {
    let dev = Device::open();
    let specs = legal_swizzles();
    let total: u32 = specs.iter().map(offsets).sum();
    let mut out = dev.stream.alloc_zeros::<u32>(total as usize).unwrap();
    let mut masks = dev.stream.alloc_zeros::<u32>(4 * specs.len()).unwrap();
    let f = dev.function("swizzle_tables");
    unsafe {
        dev.stream
            .launch_builder(&f)
            .arg(&mut out)
            .arg(&mut masks)
            .launch(cfg((64, 1), 256))
    }
    .unwrap();
    let out = dev.stream.clone_dtoh(&out).unwrap();
    let masks = dev.stream.clone_dtoh(&masks).unwrap();
    let mut bad = Vec::new();
    let mut at = 0usize;
    for (i, sw) in specs.iter().enumerate() {
        let want = [
            sw.bit_msk(),
            sw.yyy_msk(),
            sw.zzz_msk(),
            sw.msk_sft() as u32,
        ];
        if masks[4 * i..4 * i + 4] != want {
            bad.push(format!(
                "{sw}: masks {:?}, Rust {want:?}",
                &masks[4 * i..4 * i + 4]
            ));
        }
        for o in 0..offsets(sw) {
            if out[at + o as usize] != sw.apply(o) {
                bad.push(format!(
                    "{sw}: apply({o}) = {} on the device, {} in Rust",
                    out[at + o as usize],
                    sw.apply(o)
                ));
            }
        }
        at += offsets(sw) as usize;
    }
    report("Swizzle<B,M,S>", &bad);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn raster_functions_on_device_match_rust() {
    let dev = Device::open();
    let mut configs: Vec<u32> = Vec::new();
    let mut cases: Vec<(Raster, Grid, u32)> = Vec::new();
    let mut total = 0u32;
    for r in raster_specs() {
        for gy in 1..=MAX_SIDE {
            for gx in 1..=MAX_SIDE {
                let g = Grid::new(gx, gy);
                let l = r.launch_grid_unchecked(g);
                configs.extend([order_index(&r), r.param_value(), gx, gy, l.x, l.y, total]);
                cases.push((r, g, total));
                total += l.x * l.y;
            }
        }
    }
    let configs_d = dev.stream.clone_htod(&configs).unwrap();
    let mut out = dev.stream.alloc_zeros::<u32>(3 * total as usize).unwrap();
    let f = dev.function("raster_tables");
    let blocks = cases.len() as u32;
    unsafe {
        dev.stream
            .launch_builder(&f)
            .arg(&configs_d)
            .arg(&mut out)
            .launch(cfg((blocks, 1), 128))
    }
    .unwrap();
    let out = dev.stream.clone_dtoh(&out).unwrap();
    let mut bad = Vec::new();
    for (r, g, first) in cases {
        let l = r.launch_grid_unchecked(g);
        for bid in 0..l.x * l.y {
            let i = 3 * (first + bid) as usize;
            let want = expected(&r, bid, g);
            if out[i..i + 3] != want {
                bad.push(format!(
                    "{r} on {g}, bid {bid}: device {:?}, Rust {want:?}",
                    &out[i..i + 3]
                ));
            }
        }
    }
    report("raster_* functions", &bad);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn device_conveniences_in_real_launches_match_rust() {
    let dev = Device::open();
    let mut bad = Vec::new();
    // Launch `kernel (out, args...)` on the launch grid of `r` for tile grid `g`, then compare every block's record.
    let mut check = |what: String, r: &Raster, g: Grid, kernel: &str, args: &[u32]| {
        let l = r.launch_grid_unchecked(g);
        let mut out = dev
            .stream
            .alloc_zeros::<u32>(4 * (l.x * l.y) as usize)
            .unwrap();
        let f = dev.function(kernel);
        let mut launch = dev.stream.launch_builder(&f);
        launch.arg(&mut out);
        for a in args {
            launch.arg(a);
        }
        unsafe { launch.launch(cfg((l.x, l.y), 32)) }.unwrap();
        let out = dev.stream.clone_dtoh(&out).unwrap();
        for bid in 0..l.x * l.y {
            let rec = &out[4 * bid as usize..4 * bid as usize + 4];
            let want = expected(r, bid, g);
            if rec[0] != 1 || rec[1..] != want {
                bad.push(format!(
                    "{what} on {g}, bid {bid}: device [x, y, active] {:?} (launch_bid() right: {}), Rust {want:?}",
                    &rec[1..],
                    rec[0] == 1
                ));
            }
        }
    };
    let params = [1u32, 2, 3, 5];
    for gy in 1..=HERE_SIDE {
        for gx in 1..=HERE_SIDE {
            let g = Grid::new(gx, gy);
            let mut runs: Vec<(&str, Raster)> = vec![
                ("here_identity", Raster::Identity),
                ("here_morton", Raster::Morton),
                ("here_diagonal", Raster::Diagonal),
            ];
            for p in params {
                runs.push(("here_strip", Raster::Strip { tile: p }));
                runs.push(("here_group_m", Raster::GroupM { group: p }));
                runs.push(("here_serpentine", Raster::Serpentine { panel: p }));
            }
            for (kernel, r) in runs {
                let p = r.param_value();
                check(format!("{kernel}({p})"), &r, g, kernel, &[p]);
            }
            for lt in 0..=3u32 {
                let r = Raster::Cutlass { log_tile: lt };
                check(
                    format!("here_cutlass({lt})"),
                    &r,
                    g,
                    "here_cutlass",
                    &[gx, gy, lt],
                );
            }
            for (which, (name, r)) in named().into_iter().enumerate() {
                let which = which as u32;
                check(
                    format!("{name}::here()"),
                    &r,
                    g,
                    "named_here",
                    &[which, gx, gy],
                );
            }
        }
    }
    report("device conveniences", &bad);
}
