//! The generated header as host C++17: it compiles warning-free with g++ (and clang++ when installed), and its
//! `Swizzle<B,M,S>` and raster functions compute exactly what the Rust functions compute, on the whole small
//! domain: every legal `B <= 3, M <= 4, |S| <= 6` on offsets `0..max(2^12, period)`, and every raster order on every
//! grid up to 32x32 (strip / group-m / serpentine parameters 1..=16, cutlass log_tile 0..=6).
//!
//! A C++ driver prints the tables; this test computes the same lines in Rust and compares them line by line. Small
//! grids are printed tile by tile (readable diffs), every grid as an FNV-1a hash of its whole table.
#[path = "common/gxx.rs"]
mod gxx;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use swizzle_core::cuda::Header;
use swizzle_core::raster::{Grid, Raster};
use swizzle_core::rules::RuleError;
use swizzle_core::Swizzle;

const MAX_SIDE: u32 = 32;
const MAX_PARAM: u32 = 16;
const MAX_LOG_TILE: u32 = 6;
/// Grids up to this side are printed tile by tile, with parameters up to `DETAIL_PARAM`.
const DETAIL_SIDE: u32 = 6;
const DETAIL_PARAM: u32 = 4;
const CXXFLAGS: [&str; 5] = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1"];

/// g++ always (it is present here and in CI); clang++ when installed.
fn compilers() -> Vec<&'static str> {
    let works = |c: &str| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(works("g++"), "g++ is required for the header tests");
    let mut cs = vec!["g++"];
    if works("clang++") {
        cs.push("clang++");
    } else {
        eprintln!("clang++ not found: header checked with g++ only");
    }
    cs
}

/// A fresh directory under the target dir holding `swz.cuh` (rendered from `header`) for one test.
fn workdir(test: &str, header: &Header) -> PathBuf {
    let dir = gxx::workdir("header_host", test);
    std::fs::write(dir.join("swz.cuh"), header.render()).unwrap();
    dir
}

/// Compile `source` (written as `name`) against the header in `dir`, with `CXXFLAGS` plus `extra`.
fn compile(
    compiler: &str,
    dir: &Path,
    name: &str,
    source: &str,
    extra: &[&str],
) -> (Output, PathBuf) {
    gxx::compile_with(compiler, &CXXFLAGS, dir, name, source, extra)
}

fn compile_ok(compiler: &str, dir: &Path, name: &str, source: &str, extra: &[&str]) -> PathBuf {
    let (out, exe) = compile(compiler, dir, name, source, extra);
    assert!(
        out.status.success(),
        "{compiler} {name}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

// ---- the swizzle table ------------------------------------------------------------------------------------------

fn legal_swizzles() -> Vec<Swizzle> {
    Swizzle::all_legal(3, 4, 6).collect()
}

fn offsets(sw: &Swizzle) -> u32 {
    (sw.period() as u32).max(1 << 12)
}

/// `sw B M S bit_msk yyy_msk zzz_msk msk_sft apply(0) apply(1) ...`
fn swizzle_line(sw: &Swizzle) -> String {
    let mut l = format!(
        "sw {} {} {} {} {} {} {}",
        sw.bits,
        sw.base,
        sw.shift,
        sw.bit_msk(),
        sw.yyy_msk(),
        sw.zzz_msk(),
        sw.msk_sft()
    );
    for o in 0..offsets(sw) {
        write!(l, " {}", sw.apply(o)).unwrap();
    }
    l
}

// ---- the raster tables ------------------------------------------------------------------------------------------

/// Every (order, parameter) the driver sweeps; parameter-less orders use 0.
fn raster_specs() -> Vec<Raster> {
    Raster::sweep(MAX_PARAM, MAX_LOG_TILE)
}

/// The C++ `Tile` of `bid` as `(x, y, active)`: `tile_of`, with `(0, 0, false)` for an idle block.
fn tile(r: &Raster, bid: u32, g: Grid) -> (u32, u32, u32) {
    r.tile_of(bid, g).map_or((0, 0, 0), |(x, y)| (x, y, 1))
}

fn fnv(mut h: u64, v: u32) -> u64 {
    for byte in v.to_le_bytes() {
        h ^= byte as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// `r NAME PARAM GX GY LX LY HASH`: the whole table of one order on one grid.
fn hash_line(r: &Raster, g: Grid) -> String {
    let l = r.launch_grid_unchecked(g);
    let mut h = 0xcbf29ce484222325u64;
    for bid in 0..l.x * l.y {
        let (x, y, a) = tile(r, bid, g);
        h = fnv(fnv(fnv(h, x), y), a);
    }
    format!(
        "r {} {} {} {} {} {} {h}",
        r.name(),
        r.param_value(),
        g.x,
        g.y,
        l.x,
        l.y
    )
}

/// `t NAME PARAM GX GY x,y,a x,y,a ...`: the table itself, for small grids.
fn detail_line(r: &Raster, g: Grid) -> String {
    let l = r.launch_grid_unchecked(g);
    let mut s = format!("t {} {} {} {}", r.name(), r.param_value(), g.x, g.y);
    for bid in 0..l.x * l.y {
        let (x, y, a) = tile(r, bid, g);
        write!(s, " {x},{y},{a}").unwrap();
    }
    s
}

fn grids(max: u32) -> impl Iterator<Item = Grid> {
    (1..=max).flat_map(move |y| (1..=max).map(move |x| Grid::new(x, y)))
}

/// The lines the driver must print, in order, computed from the Rust functions (raster lines on all cores).
fn expected_lines() -> Vec<String> {
    let mut lines: Vec<String> = legal_swizzles().iter().map(swizzle_line).collect();
    let specs = raster_specs();
    for r in &specs {
        if r.param_value() <= DETAIL_PARAM {
            lines.extend(grids(DETAIL_SIDE).map(|g| detail_line(r, g)));
        }
    }
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    let chunks: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = specs
            .chunks(specs.len().div_ceil(threads))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .flat_map(|r| grids(MAX_SIDE).map(|g| hash_line(r, g)))
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    lines.extend(chunks.into_iter().flatten());
    lines
}

/// The C++ driver: prints the same lines from the header's functions.
fn driver_source(extra_asserts: &str) -> String {
    let mut swizzle_calls = String::new();
    for sw in legal_swizzles() {
        writeln!(
            swizzle_calls,
            "    dump_swizzle<{}, {}, {}>({}u);",
            sw.bits,
            sw.base,
            sw.shift,
            offsets(&sw)
        )
        .unwrap();
    }
    let mut raster_calls = String::new();
    for r in raster_specs() {
        let call = match r {
            Raster::Cutlass { log_tile } => format!(
                "[](uint32_t b, uint32_t gx, uint32_t gy) {{ return swz::raster_cutlass(b, gx, gy, {log_tile}u); }}, \
                 [](uint32_t gx, uint32_t gy) {{ return swz::raster_cutlass_launch(gx, gy, {log_tile}u); }}"
            ),
            _ => format!(
                "[](uint32_t b, uint32_t gx, uint32_t gy) {{ return swz::{}; }}, same_grid",
                r.cuda_call("b", "gx", "gy")
            ),
        };
        writeln!(
            raster_calls,
            "    sweep(\"{}\", {}u, {call});",
            r.name(),
            r.param_value()
        )
        .unwrap();
    }
    format!(
        r#"#include "swz.cuh"
#include <cstdio>
#include <string>
#include <vector>

{extra_asserts}

template <int B, int M, int S>
void dump_swizzle(uint32_t offsets) {{
    using Sw = swz::Swizzle<B, M, S>;
    std::printf("sw %d %d %d %u %u %u %d", Sw::num_bits, Sw::num_base, Sw::num_shft, Sw::bit_msk, Sw::yyy_msk,
                Sw::zzz_msk, Sw::msk_sft);
    for (uint32_t o = 0; o < offsets; ++o) std::printf(" %u", Sw::apply(o));
    std::printf("\n");
}}

static unsigned long long fnv(unsigned long long h, uint32_t v) {{
    for (int i = 0; i < 4; ++i) {{
        h ^= (v >> (8 * i)) & 0xffu;
        h *= 0x100000001b3ull;
    }}
    return h;
}}

static swz::LaunchGrid same_grid(uint32_t gx, uint32_t gy) {{ return swz::LaunchGrid{{gx, gy}}; }}

static std::vector<std::string>* detail_lines;
static std::vector<std::string>* hash_lines;

template <class F, class L>
void sweep(const char* name, uint32_t param, F f, L launch) {{
    char buf[64];
    for (uint32_t gy = 1; gy <= {MAX_SIDE}u; ++gy)
        for (uint32_t gx = 1; gx <= {MAX_SIDE}u; ++gx) {{
            swz::LaunchGrid l = launch(gx, gy);
            unsigned long long h = 0xcbf29ce484222325ull;
            bool detail = gx <= {DETAIL_SIDE}u && gy <= {DETAIL_SIDE}u && param <= {DETAIL_PARAM}u;
            std::string t;
            if (detail) {{
                std::snprintf(buf, sizeof buf, "t %s %u %u %u", name, param, gx, gy);
                t = buf;
            }}
            for (uint32_t bid = 0; bid < l.x * l.y; ++bid) {{
                swz::Tile tile = f(bid, gx, gy);
                h = fnv(fnv(fnv(h, tile.x), tile.y), tile.active ? 1u : 0u);
                if (detail) {{
                    std::snprintf(buf, sizeof buf, " %u,%u,%u", tile.x, tile.y, tile.active ? 1u : 0u);
                    t += buf;
                }}
            }}
            if (detail) detail_lines->push_back(t);
            std::snprintf(buf, sizeof buf, "r %s %u %u %u %u %u %llu", name, param, gx, gy, l.x, l.y, h);
            hash_lines->push_back(buf);
        }}
}}

int main() {{
{swizzle_calls}
    std::vector<std::string> d, h;
    detail_lines = &d;
    hash_lines = &h;
{raster_calls}
    for (const std::string& s : d) std::printf("%s\n", s.c_str());
    for (const std::string& s : h) std::printf("%s\n", s.c_str());
    return 0;
}}
"#
    )
}

/// `static_assert`s whose expected values come from Rust: the header's `constexpr` functions and named specs agree
/// with swizzle-core at compile time.
fn static_asserts() -> String {
    let mut s = String::new();
    let sw = Swizzle::new(3, 3, 3);
    for o in [0u32, 7, 64, 72, 511, 1000, 4095] {
        writeln!(
            s,
            "static_assert(swz::SmemA::apply({o}u) == {}u, \"SmemA\");",
            sw.apply(o)
        )
        .unwrap();
    }
    writeln!(
        s,
        "static_assert(swz::SmemA::yyy_msk == {}u && swz::SmemA::zzz_msk == {}u, \"masks\");",
        sw.yyy_msk(),
        sw.zzz_msk()
    )
    .unwrap();
    let neg = Swizzle::new(2, 1, -3);
    writeln!(
        s,
        "static_assert(swz::SmemNeg::apply(0x1fu) == {}u, \"SmemNeg\");",
        neg.apply(0x1f)
    )
    .unwrap();
    for (name, r, g) in named_rasters() {
        let l = r.launch_grid_unchecked(g);
        writeln!(
            s,
            "static_assert(swz::{name}::launch_grid({}u, {}u).x == {}u, \"{name}\");",
            g.x, g.y, l.x
        )
        .unwrap();
        for bid in 0..l.x * l.y {
            let (x, y, a) = tile(&r, bid, g);
            writeln!(
                s,
                "static_assert(swz::{name}::tile_of({bid}u, {gx}u, {gy}u).x == {x}u && \
                 swz::{name}::tile_of({bid}u, {gx}u, {gy}u).y == {y}u && \
                 swz::{name}::tile_of({bid}u, {gx}u, {gy}u).active == {a}, \"{name} bid {bid}\");",
                gx = g.x,
                gy = g.y,
                a = if a == 1 { "true" } else { "false" }
            )
            .unwrap();
        }
    }
    s
}

fn named_rasters() -> Vec<(&'static str, Raster, Grid)> {
    vec![
        ("GemmOrder", Raster::Strip { tile: 4 }, Grid::new(7, 3)),
        (
            "CutlassOrder",
            Raster::Cutlass { log_tile: 2 },
            Grid::new(3, 5),
        ),
        ("TritonOrder", Raster::GroupM { group: 3 }, Grid::new(4, 7)),
        ("Snake", Raster::Serpentine { panel: 2 }, Grid::new(5, 3)),
        ("ZOrder", Raster::Morton, Grid::new(8, 2)),
        ("Diag", Raster::Diagonal, Grid::new(5, 3)),
        ("Plain", Raster::Identity, Grid::new(3, 2)),
    ]
}

fn full_header() -> Header {
    let mut h = Header::new()
        .swizzle("SmemA", Swizzle::new(3, 3, 3))
        .swizzle("SmemNeg", Swizzle::new(2, 1, -3));
    for (name, r, _) in named_rasters() {
        h = h.raster(name, r);
    }
    h
}

#[test]
fn header_matches_rust_on_the_whole_small_domain() {
    let expected = expected_lines();
    for cxx in compilers() {
        let dir = workdir(&format!("tables-{cxx}"), &full_header());
        let exe = compile_ok(
            cxx,
            &dir,
            "driver.cpp",
            &driver_source(&static_asserts()),
            &[],
        );
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success(), "{cxx}: driver failed");
        let text = String::from_utf8(out.stdout).unwrap();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), expected.len(), "{cxx}: line count");
        for (g, e) in got.iter().zip(&expected) {
            if g != e {
                let head = |s: &str| s.split(' ').take(8).collect::<Vec<_>>().join(" ");
                panic!(
                    "{cxx}: C++ and Rust disagree\n  C++:  {}\n  Rust: {}",
                    head(g),
                    head(e)
                );
            }
        }
    }
}

#[test]
fn header_compiles_alone_twice_and_as_nvrtc_would_see_it() {
    for cxx in compilers() {
        let dir = workdir(&format!("alone-{cxx}"), &full_header());
        // Self-contained, and the include guard holds.
        let src = "#include \"swz.cuh\"\n#include \"swz.cuh\"\nint main() { return swz::SmemA::apply(64) == 72 ? 0 : 1; }\n";
        let exe = compile_ok(cxx, &dir, "twice.cpp", src, &[]);
        assert!(Command::new(exe).status().unwrap().success());
        // NVRTC branch: no standard headers at all (-nostdinc), CUDA keywords defined away.
        let src = "#include \"swz.cuh\"\nstatic_assert(swz::SmemA::apply(64) == 72, \"\");\n\
                   static_assert(swz::raster_diagonal(3, 3, 2).x == 1, \"\");\n";
        compile_ok(
            cxx,
            &dir,
            "rtc.cpp",
            src,
            &[
                "-fsyntax-only",
                "-nostdinc",
                "-nostdinc++",
                "-D__CUDACC_RTC__",
                "-D__host__=",
                "-D__device__=",
                "-D__forceinline__=inline",
            ],
        );
    }
}

#[test]
fn illegal_swizzle_fails_with_the_rules_wording() {
    let cases = [
        (
            "3, 3, 2",
            RuleError::ShiftSmallerThanBits { bits: 3, shift: 2 },
        ),
        (
            "2, 1, -1",
            RuleError::ShiftSmallerThanBits { bits: 2, shift: -1 },
        ),
        (
            "8, 16, 9",
            RuleError::MaskOutOfRange {
                bits: 8,
                base: 16,
                shift: 9,
            },
        ),
    ];
    for cxx in compilers() {
        let dir = workdir(&format!("illegal-{cxx}"), &Header::new());
        for (i, (params, rule)) in cases.iter().enumerate() {
            let src = format!("#include \"swz.cuh\"\nuint32_t f(uint32_t o) {{ return swz::Swizzle<{params}>::apply(o); }}\n");
            let (out, _) = compile(cxx, &dir, &format!("illegal{i}.cpp"), &src, &["-c"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{cxx}: Swizzle<{params}> compiled");
            assert!(
                err.contains(rule.message()),
                "{cxx}: Swizzle<{params}> error lacks {:?}:\n{err}",
                rule.message()
            );
        }
    }
}

#[test]
fn named_specs_render_as_documented() {
    let text = full_header().render();
    assert!(text.contains("// Sw<3,3,3>\nusing SmemA = swz::Swizzle<3, 3, 3>;"));
    assert!(text.contains(
        "// strip(tile=4)\nstruct GemmOrder {\n    static SWZ_HD constexpr Tile tile_of(uint32_t bid, uint32_t gx, \
         uint32_t gy) { return raster_strip(bid, gx, gy, 4u); }"
    ));
    assert!(text.contains("return raster_cutlass_launch(gx, gy, 2u);"));
    // Every order's C++ twin is in the header, verbatim.
    for f in swizzle_core::raster::CUDA_FUNCTIONS {
        assert!(text.contains(f));
    }
    assert!(text.contains(&swizzle_core::swizzle::cuda_swizzle_template()));
    // No named specs: no alias section.
    let bare = swizzle_core::cuda::header();
    assert!(!bare.contains("named specs") && bare.contains("struct Tile {"));
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for kw in [
        "SWZ_HD constexpr Tile raster_",
        "__device__ __forceinline__ Tile raster_",
    ] {
        *counts.entry(kw).or_default() += bare.matches(kw).count();
    }
    assert_eq!(counts["SWZ_HD constexpr Tile raster_"], 7, "seven orders");
    assert_eq!(
        counts["__device__ __forceinline__ Tile raster_"], 7,
        "seven *_here conveniences"
    );
}

#[test]
fn bad_names_are_refused() {
    use swizzle_core::cuda::HeaderError;
    let sw = Swizzle::new(3, 3, 3);
    assert!(matches!(
        Header::new().try_swizzle("3d", sw),
        Err(HeaderError::NotAnIdentifier(_))
    ));
    assert!(matches!(
        Header::new().try_swizzle("class", sw),
        Err(HeaderError::NotAnIdentifier(_))
    ));
    assert!(matches!(
        Header::new().try_swizzle("Tile", sw),
        Err(HeaderError::Reserved(_))
    ));
    assert!(matches!(
        Header::new().try_raster("raster_mine", Raster::Morton),
        Err(HeaderError::Reserved(_))
    ));
    let h = Header::new().swizzle("A", sw);
    assert!(matches!(
        h.try_raster("A", Raster::Morton),
        Err(HeaderError::Duplicate(_))
    ));
    let e = Header::new()
        .try_raster("G", Raster::Strip { tile: 0 })
        .unwrap_err();
    assert_eq!(e.to_string(), "\"G\": strip: tile must be >= 1");
}
