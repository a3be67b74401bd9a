//! g++ for the host tests of generated C++: compile one source file into an executable, run it. Each test file
//! includes this with `#[path = "common/gxx.rs"] mod gxx;`.
use std::path::{Path, PathBuf};
use std::process::Command;

/// Write `source` to `dir/file`, compile it with `g++ -std=c++17 -Wall -Wextra -Werror -I dir` plus `extra`, and
/// return the executable, or g++'s messages when it fails.
pub fn compile(dir: &Path, file: &str, source: &str, extra: &[&str]) -> Result<PathBuf, String> {
    let src = dir.join(file);
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(format!("{file}.out"));
    let out = Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror"])
        .args(extra)
        .arg("-I")
        .arg(dir)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("g++ is required for the header tests");
    if out.status.success() {
        Ok(exe)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Run a compiled driver; its stdout (it must exit 0).
pub fn run(exe: &Path) -> String {
    let run = Command::new(exe).output().unwrap();
    assert!(run.status.success());
    String::from_utf8(run.stdout).unwrap()
}
