//! What `assert_conflict_free!` costs at compile time: builds a one-file crate that depends on swizzle-core three
//! ways (no assert, the assert once, 100 distinct copies of it, each checking a 128x64 f16 tile with `Sw<3,3,3>`
//! for `row16` and `ldmatrix.x4`) and prints the median wall time of `cargo build` after touching `main.rs`
//! (dependencies prebuilt, incremental compilation off so that const evaluations are not reused).
//!
//! ```text
//! cargo run --release -p swizzle-core --example compile_cost -- [RUNS]     (default 7)
//! cargo run --release -p swizzle-core --example compile_cost -- --from-clean [RUNS]     (default 3)
//! ```
//! `--from-clean`: what a user pays from an empty target directory (the proc-macro stack, swizzle-core and the
//! user's crate) for a crate using `swizzle!`, `#[raster]` and one `assert_conflict_free!`: the wall time of each
//! `cargo build`. `SWIZZLE_ROOT=<checkout>` measures another checkout.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    if let Err(e) = run() {
        eprintln!("compile_cost: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let from_clean = args.first().is_some_and(|a| a == "--from-clean");
    if from_clean {
        args.remove(0);
    }
    let runs: usize = match args.first() {
        None if from_clean => 3,
        None => 7,
        Some(r) => r
            .parse()
            .ok()
            .filter(|&r| r > 0)
            .ok_or(format!("RUNS: expected a positive count, got {r:?}"))?,
    };
    let root = match std::env::var_os("SWIZZLE_ROOT") {
        Some(r) => PathBuf::from(r),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .ok_or("swizzle-core has no parent folder")?
            .to_path_buf(),
    };
    let core = root.join("swizzle-core");
    let work = std::env::temp_dir().join(format!("swizzle-compile-cost-{}", std::process::id()));
    let result = if from_clean {
        from_scratch(&root, &core, &work, runs)
    } else {
        measure(&root, &core, &work, runs)
    };
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// The scratch crate: `Cargo.toml` depending on `core`, the toolchain file of `root`, `src/`.
fn scratch(root: &Path, core: &Path, work: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", work.display());
    std::fs::create_dir_all(work.join("src")).map_err(io)?;
    std::fs::write(
        work.join("Cargo.toml"),
        format!(
            "[package]\nname = \"compile-cost\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             [dependencies]\nswizzle-core = {{ path = {:?} }}\n[workspace]\n",
            core.display().to_string()
        ),
    )
    .map_err(io)?;
    std::fs::copy(
        root.join("rust-toolchain.toml"),
        work.join("rust-toolchain.toml"),
    )
    .map_err(io)?;
    Ok(())
}

/// `cargo build` of a one-file user crate from an empty target directory, `runs` times.
fn from_scratch(root: &Path, core: &Path, work: &Path, runs: usize) -> Result<(), String> {
    scratch(root, core, work)?;
    let io = |e: std::io::Error| format!("{}: {e}", work.display());
    std::fs::write(work.join("src/main.rs"), USER_CRATE).map_err(io)?;
    for i in 1..=runs {
        let _ = std::fs::remove_dir_all(work.join("target"));
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "?".into());
        let t = Instant::now();
        let status = Command::new("cargo")
            .args(["build", "-q"])
            .current_dir(work)
            .status()
            .map_err(|e| format!("running cargo: {e}"))?;
        if !status.success() {
            return Err(format!("cargo build failed ({status})"));
        }
        println!(
            "from clean, run {i}: {:.0} ms (load average before: {load})",
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(())
}

/// What `--from-clean` builds: the macros and one compile-time check, as a user's crate would.
const USER_CRATE: &str = r#"use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::raster::Grid;
use swizzle_core::{raster, swizzle, Elem, Swizzle};
const SW: Swizzle = swizzle!(B = 3, M = 3, S = 3);
#[raster(tile = 4)]
struct Gemm;
swizzle_core::assert_conflict_free!(
    Smem::row_major(128, 64, Elem::F16).with_swizzle(SW),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4
);
fn main() {
    println!("{:?} {}", Gemm::tile_of(12, Grid::new(5, 3)), SW.apply(64));
}
"#;

/// Incremental rebuilds after touching `main.rs`: no assert, one, 100 distinct copies.
fn measure(root: &Path, core: &Path, work: &Path, runs: usize) -> Result<(), String> {
    scratch(root, core, work)?;
    let io = |e: std::io::Error| format!("{}: {e}", work.display());
    let main_rs: PathBuf = work.join("src/main.rs");
    let build = || -> Result<f64, String> {
        let t = Instant::now();
        let status = Command::new("cargo")
            .args(["build", "-q"])
            .current_dir(work)
            .env("CARGO_INCREMENTAL", "0")
            .status()
            .map_err(|e| format!("running cargo: {e}"))?;
        if !status.success() {
            return Err(format!("cargo build failed ({status})"));
        }
        Ok(t.elapsed().as_secs_f64() * 1e3)
    };
    std::fs::write(&main_rs, source(0)).map_err(io)?;
    build()?; // the dependencies, once
    for n in [0, 1, 100] {
        std::fs::write(&main_rs, source(n)).map_err(io)?;
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            // Rewriting the file bumps its modification time, as `touch` would.
            std::fs::write(&main_rs, source(n)).map_err(io)?;
            times.push(build()?);
        }
        let list: Vec<String> = times.iter().map(|t| format!("{t:.0}")).collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{n} asserts: median {:.0} ms over {runs} builds ({})",
            times[(runs - 1) / 2],
            list.join(" ")
        );
    }
    Ok(())
}

/// `main.rs` with `n` distinct copies of the assert.
fn source(n: usize) -> String {
    let mut s = String::from(
        "#![allow(unused_imports)]\nuse swizzle_core::pattern::{Pattern, Smem};\nuse swizzle_core::{units::Elem, Swizzle};\n",
    );
    for i in 1..=n {
        s.push_str(&format!(
            "const SMEM_{i}: Smem = Smem::row_major(128, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));\n\
             swizzle_core::assert_conflict_free!(SMEM_{i}, Pattern::ROW16, Pattern::LDMATRIX_X4);\n"
        ));
    }
    s.push_str("fn main() {}\n");
    s
}
