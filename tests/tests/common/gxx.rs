//! A C++ compiler for the host tests of generated C++: a fresh directory per test, one source file compiled into
//! an executable, run. Each test file includes this with `#[path = "common/gxx.rs"] mod gxx;`.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The flags of [`compile`]: warnings are errors.
pub const CXXFLAGS: [&str; 4] = ["-std=c++17", "-Wall", "-Wextra", "-Werror"];

/// A fresh, empty directory under the target dir for test `test` of suite `suite`.
pub fn workdir(suite: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(suite)
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Write `source` to `dir/file`, compile it with `g++` and [`CXXFLAGS`] plus `extra` and `-I dir`, and return the
/// executable, or g++'s messages when it fails.
pub fn compile(dir: &Path, file: &str, source: &str, extra: &[&str]) -> Result<PathBuf, String> {
    let (out, exe) = compile_with("g++", &CXXFLAGS, dir, file, source, extra);
    if out.status.success() {
        Ok(exe)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Write `source` to `dir/file` and compile it with `compiler`, `flags` plus `extra` and `-I dir`: its output and
/// the executable's path.
pub fn compile_with(
    compiler: &str,
    flags: &[&str],
    dir: &Path,
    file: &str,
    source: &str,
    extra: &[&str],
) -> (Output, PathBuf) {
    let src = dir.join(file);
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(format!("{file}.{compiler}.out"));
    let out = Command::new(compiler)
        .args(flags)
        .args(extra)
        .arg("-I")
        .arg(dir)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("{compiler} is required for the header tests: {e}"));
    (out, exe)
}

/// Run a compiled driver; its stdout (it must exit 0).
pub fn run(exe: &Path) -> String {
    let run = Command::new(exe).output().unwrap();
    assert!(run.status.success());
    String::from_utf8(run.stdout).unwrap()
}
