//! `swz wavefronts` through the real binary: the batch mode reproduces every hardware-counted case, keeps one
//! answer line per input line, and bad input exits 2 with one stderr line.
mod common;
use common::swz_in;
use std::process::Output;

fn swz(args: &[&str], stdin: &str) -> Output {
    swz_in(args, stdin.as_bytes())
}

fn cases(file: &str) -> Vec<serde_json::Value> {
    let path = format!(
        "{}/../swizzle-core/tests/data/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    json["cases"].as_array().unwrap().clone()
}

#[test]
fn batch_reproduces_every_hardware_case() {
    for file in ["bank_truth_sample.json", "bank_probe_h200.json"] {
        let cases = cases(file);
        let input: String = cases
            .iter()
            .map(|c| serde_json::json!({"op": c["op"], "addrs": c["addrs"]}).to_string() + "\n")
            .collect();
        let out = swz(&["wavefronts", "--batch"], &input);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        assert_eq!(lines.len(), cases.len());
        for (c, line) in cases.iter().zip(lines) {
            let got: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(got["wavefronts"], c["wavefronts"], "{file}: {c}");
            let (w, i, k) = (
                got["wavefronts"].as_u64(),
                got["ideal"].as_u64(),
                got["conflicts"].as_u64(),
            );
            assert_eq!(w.unwrap() - i.unwrap(), k.unwrap());
        }
    }
}

#[test]
fn batch_bad_lines_keep_one_answer_per_line_and_exit_2() {
    let good = format!(
        r#"{{"op": "lds32", "addrs": {:?}}}"#,
        (0..32).map(|l| 128 * l).collect::<Vec<u32>>()
    );
    let input = format!("{good}\nnot json\n{{\"op\": \"lds7\", \"addrs\": []}}\n{good}\n");
    let out = swz(&["wavefronts", "--batch"], &input);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0],
        r#"{"line":1,"wavefronts":32,"ideal":1,"conflicts":31}"#
    );
    assert!(
        lines[1].starts_with(r#"{"line":2,"error":"not {"#),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("unknown op"), "{}", lines[2]);
    assert_eq!(lines[3], lines[0].replace(r#""line":1"#, r#""line":4"#));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("swz: 2 bad input line(s)"), "{stderr}");
    assert!(stderr.contains("first: line 2: not {"), "{stderr}");
}

/// Input is bytes: an invalid UTF-8 line is one error object (with its line number) and the batch goes on; blank
/// lines (CRLF included) are skipped, and every answer names the line it answers.
#[test]
fn batch_reads_bytes_skips_blank_lines_and_numbers_answers() {
    let good = format!(
        r#"{{"op": "lds32", "addrs": {:?}}}"#,
        (0..32).map(|l| 4 * l).collect::<Vec<u32>>()
    );
    let mut input = Vec::new();
    input.extend_from_slice(good.as_bytes());
    input.extend_from_slice(b"\r\n\n   \r\n");
    input.extend_from_slice(b"{\"op\": \"lds32\xff\"}\n");
    input.extend_from_slice(good.as_bytes()); // last line without a newline
    let out = swz_in(&["wavefronts", "--batch"], &input);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["wavefronts"], 1);
    assert_eq!(lines[1]["line"], 4);
    assert_eq!(lines[1]["error"], "not UTF-8 (invalid byte at offset 13)");
    assert_eq!(lines[2]["line"], 5);
    assert_eq!(lines[2]["conflicts"], 0);
    // Only blank lines: nothing to answer, exit 0.
    let blank = swz(&["wavefronts", "--batch"], "\n \n\t\n");
    assert_eq!(blank.status.code(), Some(0));
    assert!(blank.stdout.is_empty());
    // The format is documented in --help.
    let help = String::from_utf8(swz(&["wavefronts", "--help"], "").stdout).unwrap();
    assert!(
        help.contains(r#"{"line":1,"wavefronts":4,"ideal":4,"conflicts":0}"#),
        "{help}"
    );
    assert!(help.contains("Blank lines are skipped"), "{help}");
}

#[test]
fn single_instruction_report_names_the_colliding_lanes() {
    let addrs: Vec<String> = (0..32).map(|l| (64 * l).to_string()).collect();
    let out = swz(
        &["wavefronts", "--op", "lds32", "--addrs", &addrs.join(",")],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("lds32: 16 wavefronts (ideal 1, 15 bank conflicts)"),
        "{text}"
    );
    assert!(
        text.contains("bank 0 gets 16 distinct words from lanes 0@0 2@128 4@256"),
        "{text}"
    );
}

#[test]
fn single_instruction_bad_input_exits_2_with_one_line() {
    for args in [
        vec!["wavefronts", "--op", "lds33", "--addrs", "0"],
        vec!["wavefronts", "--op", "lds32", "--addrs", "0,4"],
        vec![
            "wavefronts",
            "--op",
            "lds128",
            "--addrs",
            &"8,".repeat(32)[..63],
        ],
    ] {
        let out = swz(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}
