//! What the command-line tests share: running the real `swz` and the exit contract's checks (0 clean, 1 "checked,
//! and it conflicts", 2 bad input, each failure one `swz: ` line on stderr).
//!
//! A command line is given as one string split on whitespace (`"apply --swizzle 3,3,3 --range 0..4"`), or as a
//! slice of arguments where one holds a space, is empty or is built at run time.
// Each test binary uses its own subset.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A command line: one string split on whitespace, or the arguments one by one.
pub trait Argv {
    fn argv(&self) -> Vec<String>;
}

impl Argv for str {
    fn argv(&self) -> Vec<String> {
        self.split_whitespace().map(str::to_string).collect()
    }
}

impl Argv for String {
    fn argv(&self) -> Vec<String> {
        self.as_str().argv()
    }
}

impl Argv for [&str] {
    fn argv(&self) -> Vec<String> {
        self.iter().map(|s| s.to_string()).collect()
    }
}

impl<const N: usize> Argv for [&str; N] {
    fn argv(&self) -> Vec<String> {
        self[..].argv()
    }
}

impl Argv for Vec<&str> {
    fn argv(&self) -> Vec<String> {
        self[..].argv()
    }
}

impl Argv for [String] {
    fn argv(&self) -> Vec<String> {
        self.to_vec()
    }
}

impl Argv for Vec<String> {
    fn argv(&self) -> Vec<String> {
        self.clone()
    }
}

/// `line` split on whitespace, then `more` (arguments that hold a space, paths, values built at run time).
pub fn cmd(line: &str, more: &[&str]) -> Vec<String> {
    let mut v = line.argv();
    v.extend(more.iter().map(|s| s.to_string()));
    v
}

/// The `swz` binary, not started.
pub fn command(args: &(impl Argv + ?Sized)) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_swz"));
    c.args(args.argv());
    c
}

/// Run `swz ARGS` (stdin empty) to the end.
pub fn swz(args: &(impl Argv + ?Sized)) -> Output {
    command(args).output().expect("run swz")
}

/// Run `swz ARGS` with `stdin` written to it (from a thread, so a large input cannot dead-lock on a full pipe).
pub fn swz_in(args: &(impl Argv + ?Sized), stdin: &[u8]) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run swz");
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&bytes));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

/// `swz ARGS`: the exit code (-1 for a signal), stdout and stderr as text.
pub fn run(args: &(impl Argv + ?Sized)) -> (i32, String, String) {
    let out = swz(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The stdout of a run that must have exited with `code`.
pub fn stdout_exit(out: &Output, code: i32) -> String {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The stdout of `swz ARGS`, which must exit 0.
pub fn accepted(args: &(impl Argv + ?Sized)) -> String {
    let out = swz(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{:?}: {}",
        args.argv(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `err` is exactly one `swz: ` line containing `needle`, and no panic.
pub fn one_reason(what: &str, err: &str, needle: &str) {
    assert_eq!(
        err.lines().count(),
        1,
        "{what}: stderr must be one line: {err:?}"
    );
    assert!(
        err.starts_with("swz: ") && err.contains(needle),
        "{what}: {err:?} lacks {needle:?}"
    );
    assert!(!err.contains("panicked"), "{what}: {err:?}");
}

/// A finished run exited `code` with exactly one `swz:` line on stderr containing `needle`; that line.
pub fn failed(what: &str, out: &Output, code: i32, needle: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: exit code, stderr {err:?}"
    );
    one_reason(what, &err, needle);
    err
}

/// `swz ARGS` exits `code` with exactly one `swz:` line on stderr containing `needle`; that line.
pub fn fails(code: i32, args: &(impl Argv + ?Sized), needle: &str) -> String {
    let argv = args.argv();
    failed(&format!("{argv:?}"), &swz(&argv), code, needle)
}

/// Bad input: exit 2, exactly one `swz:` line on stderr containing `needle`, nothing on stdout; that line.
pub fn refused(args: &(impl Argv + ?Sized), needle: &str) -> String {
    let argv = args.argv();
    let (c, out, err) = run(&argv);
    assert_eq!(c, 2, "{argv:?}: {err}");
    one_reason(&format!("{argv:?}"), &err, needle);
    assert!(out.is_empty(), "{argv:?}: {out}");
    err
}

/// The one JSON object `swz ARGS` prints on one line (exit 0).
pub fn json(args: &(impl Argv + ?Sized)) -> serde_json::Value {
    let text = accepted(args);
    assert_eq!(
        text.trim().lines().count(),
        1,
        "one JSON object on one line: {text}"
    );
    serde_json::from_str(&text).unwrap()
}

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swz-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A FIFO at `path` (`mkfifo`).
pub fn mkfifo(path: &std::path::Path) {
    assert!(Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo")
        .success());
}

/// Wait for `child` at most `limit` (it may be blocked opening a FIFO): killed and a failure past it.
pub fn wait_within(mut child: Child, limit: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{what}: still running after {limit:?} (blocked on a FIFO?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `text` contains every one of `needles`.
pub fn contains_all(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} in\n{text}");
    }
}
