//! The wavefront model against the hardware: every case of `tests/data/bank_truth_sample.json` (the project's
//! sample, counted by Nsight Compute on H200) and of `tests/data/bank_probe_h200.json` (broadcast, lane-pair and
//! random-collision cases measured the same way by `tests/data/bank_probe/probe.cu`) must come out exactly.
use serde_json::Value;
use swizzle_core::bank::{check_addrs, report, wavefronts};

#[path = "common/bank_case.rs"]
mod bank_case;

fn check_file(name: &str) -> usize {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Value = serde_json::from_str(&text).unwrap();
    let cases = json["cases"].as_array().unwrap();
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let (op, addrs) = bank_case::op_and_addrs(case);
        let addrs = check_addrs(op, &addrs).unwrap();
        let want = case["wavefronts"].as_u64().unwrap() as u32;
        let got = wavefronts(op, &addrs);
        assert_eq!(report(op, &addrs).wavefronts, got);
        if got != want {
            wrong.push(format!(
                "#{i} {op} {}: hardware {want}, model {got}",
                case["pattern"]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{name}: {} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
    cases.len()
}

#[test]
fn reproduces_every_sample_case() {
    assert_eq!(check_file("bank_truth_sample.json"), 723);
}

#[test]
fn reproduces_every_probe_case() {
    assert!(check_file("bank_probe_h200.json") >= 1000);
}
