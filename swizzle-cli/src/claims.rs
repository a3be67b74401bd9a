//! BENCHMARKS.md and the README's headline table against the binary: every claim's command is a valid `swz`
//! invocation (clap parses it as the binary would), every claim names a device and a date, and the Hopper headline
//! rows equal the JSON that `swz tune hopper headline --out DIR` wrote for them (`bench/hopper-headline-h100.json`).
//! A command cell is the command in backticks, or `run NAME`: the command listed as ``- run NAME: `swz ...` `` under
//! the table (one run shared by several rows, or too long for one).

use crate::Cli;
use clap::Parser;
use std::collections::HashMap;

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

/// The runs listed under the tables, ``- run NAME: `COMMAND` ``: the command by name. A name listed twice is an
/// error.
fn runs(text: &str) -> Result<HashMap<String, String>, String> {
    let mut runs = HashMap::new();
    for line in text.lines() {
        let Some((name, cmd)) = line
            .strip_prefix("- run ")
            .and_then(|rest| rest.split_once(": "))
        else {
            continue;
        };
        let cmd = cmd.trim();
        if !(cmd.len() > 2 && cmd.starts_with('`') && cmd.ends_with('`')) {
            return Err(format!(
                "run {name}: the command is not in backticks: {line}"
            ));
        }
        if runs
            .insert(name.to_string(), cmd.trim_matches('`').to_string())
            .is_some()
        {
            return Err(format!("run {name} is listed twice"));
        }
    }
    Ok(runs)
}

/// A command cell: the text between the backticks, or the command of the run it names (`run NAME`).
fn command(cell: &str, runs: &HashMap<String, String>) -> Result<String, String> {
    let cell = cell.trim();
    match cell.strip_prefix("run ") {
        Some(name) => runs
            .get(name)
            .cloned()
            .ok_or_else(|| format!("`{cell}`: no `- run {name}: ...` line lists it")),
        None => Ok(cell.trim_matches('`').to_string()),
    }
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
    let runs = runs(&text).unwrap();
    let tables = claim_tables(&text);
    let rows: usize = tables.iter().map(|(_, r)| r.len()).sum();
    let named: std::collections::HashSet<&str> = tables
        .iter()
        .flat_map(|(_, rows)| rows.iter().filter_map(|r| r.last()?.strip_prefix("run ")))
        .collect();
    let mut unnamed: Vec<&String> = runs
        .keys()
        .filter(|k| !named.contains(k.as_str()))
        .collect();
    unnamed.sort();
    assert!(unnamed.is_empty(), "runs no row names: {unnamed:?}");
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
            let cmd = command(&row[5], &runs).unwrap();
            let (device, date, cmd) = (&row[3], &row[4], cmd.as_str());
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
        let cmd = command(cell, &HashMap::new()).unwrap();
        assert!(cmd.starts_with("swz "), "{cmd}");
        parses(&cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"));
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
    let r = runs("- run a: `swz y --z`\n- run b: swz q\n").unwrap_err();
    assert!(r.contains("run b"), "{r}");
    assert!(runs("- run a: `swz y`\n- run a: `swz z`\n").is_err());
    let r = runs("text\n- run a: `swz y --z`\n").unwrap();
    assert_eq!(command(" run a ", &r).unwrap(), "swz y --z");
    assert_eq!(command("`swz q`", &r).unwrap(), "swz q");
    assert!(command("run b", &r).is_err());
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
    let runs = runs(&text).unwrap();
    let mut checked = 0;
    for (_, rows) in claim_tables(&text) {
        for row in rows {
            if command(&row[5], &runs).unwrap() != "swz tune hopper headline --rounds 24" {
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
            // The JSON entry of the candidate named `spec` ("shipped", "base") at this type and size.
            let entry_of = |spec: &str| {
                json.as_array()
                    .unwrap()
                    .iter()
                    .find(|e| {
                        e["candidate"].as_str().unwrap().starts_with(spec)
                            && e["ty"] == ty
                            && e["size"][0] == n
                    })
                    .unwrap_or_else(|| panic!("no JSON entry for {spec} in {claim}"))
            };
            let entry = entry_of("shipped");
            let pct = |k: &str| format!("{:.1}", 100.0 * entry["ratio"][k].as_f64().unwrap());
            let nums = decimals(&row[1]);
            assert_eq!(format!("{:.1}", nums[0]), pct("median"), "{claim}");
            if row[1].contains("min") {
                assert_eq!(format!("{:.1}", nums[1]), pct("min"), "{claim}");
                assert_eq!(format!("{:.1}", nums[2]), pct("max"), "{claim}");
            }
            // The base (single CTA) spec of the same rounds, where the row names it.
            if let Some(base) = row[2].split("base").nth(1) {
                let b = entry_of("base");
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
