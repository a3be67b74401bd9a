//! Hostile input, the edges: the exit status when stdout or stderr cannot be written, inputs that are not
//! regular files, the `--batch` line limit and its line endings, the subcommands a missing one lists, duplicate
//! `--layout` keys, what `--then` offers, and how long `synth` may run silent.
mod common;
use common::{command, failed, mkfifo, refused, scratch, swz, swz_in, wait_within, Argv};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full (every write fails with ENOSPC)")
}

/// `swz ARGS` with stdout and/or stderr on `/dev/full` (the other one discarded); the exit status.
fn status_with_full(
    args: &(impl Argv + ?Sized),
    stdout_full: bool,
    stderr_full: bool,
) -> Option<i32> {
    let pick = |full_one: bool| {
        if full_one {
            full().into()
        } else {
            Stdio::null()
        }
    };
    command(args)
        .stdin(Stdio::null())
        .stdout(pick(stdout_full))
        .stderr(pick(stderr_full))
        .status()
        .expect("run swz")
        .code()
}

#[test]
fn the_exit_status_survives_an_unwritable_stdout_or_stderr() {
    let conflicts = "check --tile 64x64 --pattern ldmatrix.x4";
    let clean = "check --tile 64x64 --pattern ldmatrix.x4 --swizzle 3,3,3";
    let bad = "check --tile 64x64x --pattern ldmatrix.x4";
    // Stderr full: the verdict is the status, as with a working stderr (it was 101, a panic, for 1 and 2).
    for (args, status) in [
        (conflicts, 1),
        (clean, 0),
        (bad, 2),
        ("check --no-such-flag", 2),
        ("tune", 2),
    ] {
        assert_eq!(
            status_with_full(args, false, false),
            Some(status),
            "{args:?}"
        );
        assert_eq!(
            status_with_full(args, false, true),
            Some(status),
            "{args:?} 2>/dev/full"
        );
    }
    // Stdout full: output that cannot be written is an error (2, as documented), stderr full or not.
    for args in [conflicts, clean] {
        assert_eq!(
            status_with_full(args, true, false),
            Some(2),
            "{args:?} >/dev/full"
        );
        assert_eq!(
            status_with_full(args, true, true),
            Some(2),
            "{args:?} >/dev/full 2>/dev/full"
        );
    }
    assert_eq!(status_with_full(bad, true, true), Some(2));
    // synth's verdict (1: nothing conflict-free) with its progress lines going nowhere.
    let synth = "synth --tile 64x64 --elem f16 --pattern col.st --pattern ldmatrix.x4 --progress";
    let normal = status_with_full(synth, false, false);
    assert_eq!(normal, Some(1));
    assert_eq!(status_with_full(synth, false, true), normal);
}

#[test]
fn compare_refuses_what_is_not_a_regular_file() {
    let dir = scratch("edges-fifo");
    let fifo = dir.join("ncu.csv");
    mkfifo(&fifo);
    let compare = |path: &std::path::Path| {
        common::cmd("profile transpose compare", &[path.to_str().unwrap()])
    };
    // Opening the FIFO would block until a writer came: run it with a deadline.
    let child = command(&compare(&fifo))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let what = "swz profile ... compare FIFO";
    let out = wait_within(child, Duration::from_secs(20), what);
    failed(what, &out, 2, "not a regular file");
    refused(&compare(&dir), "not a regular file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `{"op":"lds32",...}` padded with spaces to exactly `len` bytes.
fn instruction_of_len(len: usize) -> Vec<u8> {
    let addrs: Vec<String> = (0..32).map(|l| (4 * l).to_string()).collect();
    let mut line = format!("{{\"op\": \"lds32\", \"addrs\": [{}]}}", addrs.join(",")).into_bytes();
    assert!(line.len() <= len);
    line.resize(len, b' ');
    line
}

fn batch(input: Vec<u8>) -> (Option<i32>, String) {
    let out = swz_in("wavefronts --batch", &input);
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// The limit is on the line's text, whatever ends it: `\n`, `\r\n`, or the end of input.
#[test]
fn the_batch_line_limit_does_not_count_the_line_ending() {
    const MAX: usize = 65536;
    for ending in [&b"\n"[..], b"\r\n", b""] {
        let mut longest = instruction_of_len(MAX);
        longest.extend_from_slice(ending);
        let (code, out) = batch(longest);
        assert_eq!(code, Some(0), "{ending:?}: {out}");
        assert!(
            out.starts_with("{\"line\":1,\"wavefronts\":1"),
            "{ending:?}: {out}"
        );

        let mut over = instruction_of_len(MAX + 1);
        over.extend_from_slice(ending);
        let (code, out) = batch(over);
        assert_eq!(code, Some(2), "{ending:?}: {out}");
        assert!(out.contains("longer than 65536 bytes"), "{ending:?}: {out}");
    }
}

#[test]
fn a_missing_subcommand_lists_that_commands_own() {
    for (args, lists) in [
        ("plan", "`swz plan` needs a subcommand: gemm"),
        (
            "tune",
            "`swz tune` needs a subcommand: gemm, hopper or stencil",
        ),
        (
            "tune gemm",
            "`swz tune gemm` needs a subcommand: bench, rounds",
        ),
        ("tune gemm", "(see `swz tune gemm --help`)"),
        (
            "profile",
            "`swz profile` needs a subcommand: entries, metrics, builds, run or compare",
        ),
        ("", "a subcommand is required: apply, raster"),
    ] {
        let err = refused(args, lists);
        if !args.is_empty() {
            assert!(!err.contains("apply, raster"), "{args:?}: {err}");
        }
    }
}

#[test]
fn duplicate_layout_keys_are_refused_like_the_macros() {
    for layout in [
        "L=64x64:f16:3,3,3:pad=16:pad=32",
        "L=64x64:f16:3,3,3:unit=f16:unit=bytes",
        "L=64x64:f16:3,3,3:col:col",
    ] {
        refused(&format!("emit-header --layout {layout}"), "duplicate key");
    }
    let key = refused(
        "emit-header --layout L=64x64:f16:3,3,3:pad=16:pad=32",
        "pad",
    );
    assert!(key.contains("duplicate key `pad`"), "{key}");
    assert!(
        swz("emit-header --layout L=64x64:f16:3,3,3:pad=16:unit=f16:col")
            .status
            .success()
    );
}

#[test]
fn then_offers_only_what_it_accepts() {
    let check = |then: &str| {
        refused(
            &common::cmd(
                "check --tile 64x64 --pattern ldmatrix.x4 --swizzle 2,4,3 --then",
                &[then],
            ),
            "--then",
        )
    };
    for then in ["banana", "3,3,3+3,3,3", "SW256", "sw128", "SW128", "none"] {
        let err = check(then);
        // Byte modes and two-layer spellings are refused by --then, so it does not suggest them.
        for offered in ["did you mean", "two layers", "modes: NONE", "(NONE, SW32"] {
            assert!(!err.contains(offered), "--then {then}: {err}");
        }
    }
    assert!(check("banana").contains("expected one layer B,M,S"));
}

/// The random search's slowest case: 7.7 s of CPU with no line on stderr. Bounded now (the best-effort search
/// counts every instruction it walks), it answers within the 10 s a default search may run silent.
#[test]
fn synth_does_not_run_silent_for_long() {
    let args = "synth --tile 224x1024 --elem u8 --pattern row.st --pattern col.ld@64 --pattern stmatrix.x4@64 \
                --pattern ldmatrix.x4.trans --pattern col.st";
    let start = Instant::now();
    let out = swz(args);
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    // With --progress, every line but the verdict is a progress line.
    let out = swz(&common::cmd(args, &["--progress"]));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.last().unwrap().starts_with("swz: no conflict-free"),
        "{err}"
    );
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("swz synth: pass "), "{l}");
    }
}
