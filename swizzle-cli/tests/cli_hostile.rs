//! Hostile input, each case with the exact command a new user ran: nothing crashes, nothing the user did not name
//! is touched, the exit status is the verdict even on a closed pipe, every subcommand's work is bounded, and one
//! spelling means one thing in every subcommand.
mod common;
use common::{accepted, command, failed, mkfifo, refused, scratch, swz, wait_within};
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// `swz ARGS` with stdout a pipe whose reader is already gone: every write fails with EPIPE.
fn with_closed_stdout(args: &[String], stdin: &[u8]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

// ---- 1. raster --svg is bounded --------------------------------------------------------------------------------

#[test]
fn raster_svg_refuses_grids_it_cannot_draw() {
    let dir = scratch("svg-bound");
    let big = dir.join("big.svg");
    let big = big.to_str().unwrap();
    let start = Instant::now();
    let raster =
        |grid: &str| format!("raster --order identity --grid {grid} --limit 1 --svg {big}");
    for grid in ["65535x65535", "4096x4096"] {
        refused(&raster(grid), "at most 65536");
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(!Path::new(big).exists());
    // The largest picture still draws.
    accepted(&raster("256x256"));
    assert!(std::fs::read_to_string(big).unwrap().starts_with("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 2. outputs go through symlinks; nothing else is touched --------------------------------------------------

/// Every subcommand that writes a file the user names, with that file last.
fn writers(path: &str) -> Vec<Vec<String>> {
    [
        "show --swizzle 3,3,3 --tile 8x64 --svg",
        "check --tile 64x64 --swizzle 3,3,3 --pattern ldmatrix.x4 --svg",
        "raster --order strip:2 --grid 4x4 --svg",
        "l2 --gemm 256x256x256 --order strip:2 --svg",
        "emit-header --swizzle A=3,3,3 -o",
        "report --layout-only --json",
    ]
    .iter()
    .map(|c| common::cmd(c, &[path]))
    .collect()
}

#[test]
fn outputs_are_written_through_symlinks_and_nothing_else_is_touched() {
    let dir = scratch("links");
    let target = dir.join("target.svg");
    let link = dir.join("keep.svg");
    let tmp = dir.join("keep.swz-tmp");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for args in writers(link.to_str().unwrap()) {
        std::fs::write(&target, "old").unwrap();
        std::fs::write(&tmp, "the user's own file").unwrap();
        let out = swz(&args);
        assert!(
            out.status.code() == Some(0) || out.status.code() == Some(1),
            "{args:?}"
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{args:?}: the link was replaced"
        );
        assert_ne!(std::fs::read_to_string(&target).unwrap(), "old", "{args:?}");
        assert_eq!(
            std::fs::read_to_string(&tmp).unwrap(),
            "the user's own file",
            "{args:?}"
        );
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["keep.svg", "keep.swz-tmp", "target.svg"],
            "{args:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn non_regular_outputs_are_refused() {
    let dir = scratch("fifo");
    let fifo = dir.join("f.svg");
    mkfifo(&fifo);
    for target in [fifo.to_str().unwrap(), dir.to_str().unwrap()] {
        for args in writers(target) {
            // A FIFO must be refused, not opened: opening it would wait for a reader forever.
            let child = command(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let what = format!("{args:?}");
            let out = wait_within(child, Duration::from_secs(20), &what);
            failed(&what, &out, 2, "not a regular file");
        }
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo_like());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The GPU subcommands refuse a target they could never write before they look for a GPU, so a long run never
/// ends on it (and on a machine without one the reason is the target, not the missing driver).
#[test]
fn gpu_outputs_are_refused_before_the_run() {
    let dir = scratch("gpu-outputs");
    let fifo = dir.join("f.json");
    mkfifo(&fifo);
    for target in [&fifo, &dir] {
        let t = target.to_str().unwrap();
        for (args, flag) in [
            ("bench transpose --sizes 64", "--json"),
            ("bench transpose --sizes 64", "--csv"),
            ("l2-study", "--json"),
            ("report", "--json"),
            ("tune stencil", "--json"),
            ("tune gemm bench", "--json"),
        ] {
            refused(
                &common::cmd(args, &[flag, t]),
                &format!("{flag}: cannot write {t}: not a regular file"),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}
impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        std::os::unix::fs::FileTypeExt::is_fifo(self)
    }
}

// ---- 3. a closed stdout keeps the verdict ----------------------------------------------------------------------

#[test]
fn closed_stdout_keeps_the_verdict() {
    // `swz check --tile 64x64 --pattern ldmatrix.x4 --pattern col.ld | head -1`
    let out = with_closed_stdout(
        &common::cmd(
            "check --tile 64x64 --pattern ldmatrix.x4 --pattern col.ld",
            &[],
        ),
        b"",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bank conflicts in 2 of 2"), "{err}");
    // `wavefronts --batch` with bad lines, piped into `head`.
    let lines = "{\"op\": \"lds32\", \"addrs\": [1]}\n".repeat(2000);
    let out = with_closed_stdout(&common::cmd("wavefronts --batch", &[]), lines.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("2000 bad input line(s)"), "{err}");
    // A clean run stays 0, quietly.
    let out = with_closed_stdout(
        &common::cmd("apply --swizzle 3,3,3 --range 0..100000", &[]),
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- 4. synth: quiet stderr, bounded worst case ----------------------------------------------------------------

/// Every pattern `--pattern` takes, as the CLI spells them.
const ALL_PATTERNS: &str =
    "row16 ldmatrix.x4 ldmatrix.x4.b ldmatrix.x4.trans ldmatrix.x4.trans.b stmatrix.x4 \
     stmatrix.x4.b stmatrix.x4.trans stmatrix.x4.trans.b col.ld col.st row.ld row.st mma.acc";

#[test]
fn synth_worst_case_is_bounded_and_stderr_is_the_verdict() {
    let mut args = vec!["synth", "--tile", "128x128", "--elem", "f64"];
    for p in ALL_PATTERNS.split_whitespace() {
        args.extend(["--pattern", p]);
    }
    let start = Instant::now();
    let out = swz(&args);
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.lines().count(),
        1,
        "exit 1 carries one stderr line: {err}"
    );
    assert!(
        err.starts_with("swz: no conflict-free XOR swizzle"),
        "{err}"
    );
    // A generous ceiling for a loaded CI machine: the unbounded search took a minute.
    assert!(took < Duration::from_secs(30), "{took:?}");
}

// ---- 5. one validation for every entry point -------------------------------------------------------------------

#[test]
fn check_refuses_a_layout_show_refuses() {
    for args in [
        "show --tile 3x32 --elem f32 --swizzle 1,5,1",
        "check --tile 3x32 --elem f32 --swizzle 1,5,1 --pattern row.ld",
        "emit-header --layout L=3x32:f32:1,5,1",
    ] {
        refused(args, "does not divide");
    }
}

// ---- 6. padding cannot wrap; --layout keeps to shared memory ---------------------------------------------------

#[test]
fn layout_padding_and_size_are_bounded() {
    refused(
        "emit-header --layout L=64x64:f16:3,3,3:pad=4294967295",
        "one block's shared memory holds at most 232448",
    );
    refused(
        "check --tile 64x64 --pad 4294967295 --pattern row16",
        "232448",
    );
    refused("emit-header --layout L=1024x2048:f16:3,3,3", "232448");
    accepted("emit-header --layout L=64x64:f16:3,3,3:pad=16");
}

// ---- 7. names that break the header ----------------------------------------------------------------------------

#[test]
fn header_names_that_break_the_header_are_refused() {
    for guard in [
        "SmemA", "Swizzle", "swz", "Tile", "uint32_t", "Layout", "bid", "NULL", "INT_MAX",
    ] {
        refused(
            &format!("emit-header --swizzle SmemA=3,3,3 --guard {guard}"),
            "--guard",
        );
    }
    for name in ["NULL", "EOF", "INT_MAX", "errno", "CHAR_BIT", "M_PI"] {
        refused(
            &format!("emit-header --swizzle {name}=3,3,3"),
            "standard headers",
        );
        refused(
            &format!("emit-header --layout {name}=64x64:f16:3,3,3"),
            "standard headers",
        );
    }
    let header = accepted("emit-header --swizzle SmemA=3,3,3 --guard MY_GEMM_SWZ");
    assert!(header.contains("#ifndef MY_GEMM_SWZ"));
}

// ---- 8. every subcommand's work is bounded ---------------------------------------------------------------------

#[test]
fn unbounded_work_is_refused_in_one_line() {
    let start = Instant::now();
    for (args, needle) in [
        ("l2 --gemm 16384x16384x16384 --order all", "one --order"),
        (
            "l2 --gemm 4096x4096x4096 --tile 1x1x1 --order strip:4",
            "larger --tile",
        ),
        ("l2 --gemm 1x1000000000x1 --order strip:4", "above 1048576"),
        (
            "l2 --gemm 1x1048576x1048576 --order strip:4",
            "larger --tile",
        ),
        (
            "l2 --gemm 64x64x64 --order identity --partitions 0",
            "--partitions",
        ),
        (
            "apply --swizzle 3,3,3 --range 0..4294967295",
            "split the range",
        ),
    ] {
        refused(args, needle);
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // The top offset is reachable: Sw<3,3,3> XORs bits 6..9 into bits 3..6, all ones there, so they clear.
    let top = accepted("apply --swizzle 3,3,3 --range 4294967295..=4294967295");
    assert_eq!(top, format!("{}\n", u32::MAX - 0b111_000));
    let all = accepted("apply --swizzle 3,3,3 --range 0..=3");
    assert_eq!(all.lines().count(), 4);
}

#[test]
fn batch_lines_are_bounded() {
    let mut child = command("wavefronts --batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // A 16 MiB line, then a good one.
        let chunk = vec![b'7'; 1 << 20];
        for _ in 0..16 {
            input.write_all(&chunk).unwrap();
        }
        let addrs: Vec<String> = (0..32).map(|l| (4 * l).to_string()).collect();
        writeln!(
            input,
            "\n{{\"op\": \"lds32\", \"addrs\": [{}]}}",
            addrs.join(",")
        )
        .unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].contains("longer than 65536 bytes"), "{}", lines[0]);
    assert!(
        lines[1].starts_with("{\"line\":2,\"wavefronts\":1"),
        "{}",
        lines[1]
    );
    assert_eq!(out.status.code(), Some(2));
}

// ---- 9. one spelling everywhere --------------------------------------------------------------------------------

/// `spelling` under every subcommand that takes a swizzle: `Ok` when accepted.
fn everywhere(spelling: &str) -> Vec<(&'static str, bool)> {
    let ok = |args: String| swz(&args).status.code() == Some(0);
    vec![
        (
            "apply",
            ok(format!("apply --swizzle {spelling} --range 0..4")),
        ),
        (
            "show",
            ok(format!("show --swizzle {spelling} --tile 64x64")),
        ),
        (
            "check",
            ok(format!(
                "check --swizzle {spelling} --tile 64x64 --pattern row.ld"
            )),
        ),
        (
            "emit-header --swizzle",
            ok(format!("emit-header --swizzle A={spelling}")),
        ),
        (
            "emit-header --layout",
            ok(format!("emit-header --layout A=64x64:f16:{spelling}")),
        ),
    ]
}

#[test]
fn one_swizzle_spelling_everywhere() {
    for spelling in [
        "1,6,-2+3,3,5",
        "none",
        "Sw<1,6,-2>+Sw<3,3,5>",
        "Sw<3,3,3>",
        "3,3,3",
    ] {
        for (cmd, ok) in everywhere(spelling) {
            assert!(ok, "{cmd} refuses {spelling}");
        }
    }
    for spelling in ["3,3,3++3,3,3", "3,3,3+", "SW128+3,3,3", "-1,3,3", "sw128"] {
        for (cmd, ok) in everywhere(spelling) {
            assert!(!ok, "{cmd} accepts {spelling}");
        }
    }
    // Two layers apply the same in every subcommand: apply's offsets equal the header's layout offsets.
    let applied = accepted("apply --swizzle 1,6,-2+3,3,5 --range 0..4096");
    let shown = accepted("show --swizzle 1,6,-2+3,3,5 --tile 64x64");
    let row1: Vec<&str> = shown
        .lines()
        .nth(4)
        .unwrap()
        .split_whitespace()
        .skip(2)
        .collect();
    let applied_row1: Vec<&str> = applied.lines().skip(64).take(64).collect();
    assert_eq!(row1, applied_row1);
    refused(
        "show --swizzle -1,3,3 --tile 64x64",
        "B must be >= 0, got -1",
    );
}

#[test]
fn one_raster_and_unit_spelling_everywhere() {
    for order in [
        "group-m(group_m=8)",
        "group_m(group=8)",
        "group-m:8",
        "group-m(8)",
    ] {
        accepted(&format!("raster --order {order} --grid 4x4"));
        accepted(&format!("l2 --gemm 256x256x256 --order {order}"));
        accepted(&format!("emit-header --raster G={order}"));
    }
    for args in [
        "raster --order cutlass(log-tile=2) --grid 4x4",
        "raster --order cutlass --log-tile 2 --grid 4x4",
        "emit-header --swizzle A=SW128 --unit fp16",
        "emit-header --layout A=64x64:f16:SW128:unit=fp16",
    ] {
        accepted(args);
    }
    for (args, needle) in [
        (
            "raster --order cutlass --group 2 --grid 4x4",
            "\"group\" is not a parameter of cutlass (it takes log_tile)",
        ),
        (
            "raster --order strip --panel 2 --grid 4x4",
            "\"panel\" is not a parameter of strip (it takes tile)",
        ),
        (
            "raster --order strip(panel=2) --grid 4x4",
            "not a parameter of strip",
        ),
        (
            "check --tile 64x64 --swizzle 3,3,3 --then SW128 --pattern row16",
            "\"SW128\" is a byte mode; here only B,M,S layers are allowed",
        ),
    ] {
        refused(args, needle);
    }
}
