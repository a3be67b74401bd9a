//! The header build.rs wrote compiles as host C++17 with g++ (warnings as errors), from the include directory and
//! prepended to a kernel as NVRTC gets it, and its constants are the Rust specs' (checked by `static_assert`).
use std::path::Path;
use std::process::Command;

/// Compile `source` with g++ as the header tests do; panics with the compiler's output on failure.
fn compile(name: &str, source: &str, include: Option<&str>) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("build_header");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, source).unwrap();
    let mut cmd = Command::new("g++");
    cmd.args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"]);
    if let Some(i) = include {
        cmd.arg("-I").arg(i);
    }
    let out = cmd.arg(&file).output().expect("run g++");
    assert!(
        out.status.success(),
        "{name}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `static_assert`s that the header's specs compute what the Rust specs compute, over a range of inputs.
fn checks() -> String {
    use swizzle_core::raster::{Grid, Raster};
    use swizzle_core::Swizzle;
    let sw = Swizzle::new(3, 3, 3);
    let order = Raster::GroupM { group: 8 };
    let mut s = String::new();
    for o in (0..4096).step_by(37) {
        s.push_str(&format!(
            "static_assert(swz::SmemA::apply({o}u) == {}u);\n",
            sw.apply(o)
        ));
    }
    let g = Grid::new(5, 11);
    for bid in 0..55 {
        let (x, y) = order.tile_of(bid, g).unwrap();
        s.push_str(&format!(
            "static_assert(swz::GemmOrder::tile_of({bid}u, 5u, 11u).x == {x}u && swz::GemmOrder::tile_of({bid}u, 5u, 11u).y == {y}u);\n"
        ));
    }
    s.push_str("int main() { return 0; }\n");
    s
}

#[test]
fn the_header_compiles_from_the_include_directory() {
    let src = format!("#include \"swz.h\"\n{}", checks());
    compile("include.cpp", &src, Some(swizzle_build_header::INCLUDE_DIR));
}

#[test]
fn the_header_compiles_prepended_to_a_kernel() {
    let src = swizzle_build_header::with_header(&checks());
    compile("prepended.cpp", &src, None);
}
