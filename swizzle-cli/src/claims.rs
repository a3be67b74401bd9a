//! BENCHMARKS.md and the README's headline table against the binary: every claim's command is a valid `swz`
//! invocation (clap parses it as the binary would), every claim names a device and a date, and the Hopper headline
//! rows equal the JSON that `swz tune hopper headline --out DIR` wrote for them (`bench/hopper-headline-h100.json`).

use crate::Cli;
use clap::Parser;

fn read(rel: &str) -> String {
    let path = format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The data rows of every markdown table whose header ends with `| command |`, as cells (header names first).
fn claim_tables(text: &str) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split(" | ").map(|c| c.trim().to_string()).collect()
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut tables = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with('|') && lines[i].trim_end().ends_with("| command |") {
            let head = cells(lines[i]);
            let mut rows = Vec::new();
            i += 2; // the rule under the header
            while i < lines.len() && lines[i].starts_with('|') {
                rows.push(cells(lines[i]));
                i += 1;
            }
            tables.push((head, rows));
        } else {
            i += 1;
        }
    }
    tables
}

/// A command cell: the text between the backticks.
fn command(cell: &str) -> &str {
    cell.trim().trim_matches('`')
}

/// Parse `swz ...` with the binary's own clap definition; the error as text.
fn parses(cmd: &str) -> Result<(), String> {
    Cli::try_parse_from(cmd.split_whitespace())
        .map(drop)
        .map_err(|e| e.to_string())
}

#[test]
fn every_benchmark_claim_has_a_command_that_parses_a_device_and_a_date() {
    let text = read("BENCHMARKS.md");
    let tables = claim_tables(&text);
    let rows: usize = tables.iter().map(|(_, r)| r.len()).sum();
    assert!(
        tables.len() >= 8 && rows >= 40,
        "{} tables, {rows} rows",
        tables.len()
    );
    for (head, rows) in &tables {
        assert_eq!(
            head,
            &[
                "claim",
                "number",
                "peer (same run)",
                "device",
                "date",
                "command"
            ],
            "a claims table's columns"
        );
        for row in rows {
            assert_eq!(row.len(), head.len(), "{row:?}");
            let (device, date, cmd) = (&row[3], &row[4], command(&row[5]));
            assert!(!device.is_empty() && !row[2].is_empty(), "{row:?}");
            let d: Vec<&str> = date.split('-').collect();
            assert!(
                d.len() == 3 && d.iter().all(|p| p.parse::<u32>().is_ok()),
                "date {date:?}"
            );
            if cmd.starts_with("swz ") {
                if let Err(e) = parses(cmd) {
                    panic!("{cmd}: {e}");
                }
            } else {
                assert!(cmd.starts_with("cargo "), "{cmd}: neither swz nor cargo");
                assert!(
                    device.starts_with("CPU"),
                    "{cmd}: a GPU claim needs a swz command"
                );
            }
        }
    }
}

#[test]
fn the_readme_headline_commands_parse() {
    let text = read("README.md");
    let at = text
        .find("| kernel | result |")
        .expect("the headline table");
    let mut n = 0;
    for line in text[at..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
    {
        let cell = line.trim_end_matches('|').rsplit(" | ").next().unwrap();
        let cmd = command(cell);
        assert!(cmd.starts_with("swz "), "{cmd}");
        parses(cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"));
        n += 1;
    }
    assert!(n >= 5, "{n} headline rows");
}

#[test]
fn the_checker_can_fail() {
    assert!(parses("swz tune gemm burst 8192x8192").is_err());
    assert!(parses("swz bench transpose --itres 50").is_err());
    assert!(parses("swz bench transpose --iters 50").is_ok());
    assert_eq!(
        decimals("**101.6%** (min 98.5%, max 112.2%) over 24"),
        [101.6, 98.5, 112.2]
    );
    let t = claim_tables(
        "| a | command |\n|---|---|\n| x | `swz y` |\n\n| b | c |\n|---|---|\n| 1 | 2 |\n",
    );
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].1, [["x", "`swz y`"]]);
}

/// The decimal numbers of `**101.6%** (min 98.5%, max 112.2%)`, in order (median, then min and max if given).
fn decimals(cell: &str) -> Vec<f64> {
    cell.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|s| s.contains('.'))
        .map(|s| s.parse().unwrap())
        .collect()
}

#[test]
fn the_hopper_headline_rows_equal_their_json() {
    let json: serde_json::Value =
        serde_json::from_str(&read("bench/hopper-headline-h100.json")).expect("JSON");
    let text = read("BENCHMARKS.md");
    let mut checked = 0;
    for (_, rows) in claim_tables(&text) {
        for row in rows {
            if command(&row[5]) != "swz tune hopper headline --rounds 24" {
                continue;
            }
            // "shipped, bf16 8192³" (or the headline's "Hopper GEMM (TMA + wgmma), bf16 8192³").
            let claim = &row[0];
            let ty = if claim.contains("bf16") {
                "bf16"
            } else {
                "f16"
            };
            let n: u64 = if claim.contains("8192") { 8192 } else { 4096 };
            let entry = json
                .as_array()
                .unwrap()
                .iter()
                .find(|e| {
                    e["candidate"].as_str().unwrap().starts_with("shipped")
                        && e["ty"] == ty
                        && e["size"][0] == n
                })
                .unwrap_or_else(|| panic!("no JSON entry for {claim}"));
            let pct = |k: &str| format!("{:.1}", 100.0 * entry["ratio"][k].as_f64().unwrap());
            let nums = decimals(&row[1]);
            assert_eq!(format!("{:.1}", nums[0]), pct("median"), "{claim}");
            if row[1].contains("min") {
                assert_eq!(format!("{:.1}", nums[1]), pct("min"), "{claim}");
                assert_eq!(format!("{:.1}", nums[2]), pct("max"), "{claim}");
            }
            // The base (single CTA) spec of the same rounds, where the row names it.
            if let Some(base) = row[2].split("base").nth(1) {
                let b = json
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| {
                        e["candidate"].as_str().unwrap().starts_with("base")
                            && e["ty"] == ty
                            && e["size"][0] == n
                    })
                    .unwrap();
                let want = format!("{:.1}%", 100.0 * b["ratio"]["median"].as_f64().unwrap());
                assert!(base.contains(&want), "{claim}: base {base:?} vs {want}");
            }
            checked += 1;
        }
    }
    assert_eq!(
        checked, 5,
        "the four headline rows and the README-quoted one"
    );
}
