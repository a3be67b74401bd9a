//! `swz wavefronts --op OP --addrs a0,a1,...,a31` and `swz wavefronts --batch`
//!
//! One instruction: prints the report of [`swizzle_core::bank::report`] (wavefronts, ideal, conflicts, and per
//! phase the worst bank with its lanes) and the bank map. Addresses are byte addresses in lane order; all 32 are
//! required (for `ldmatrix/stmatrix.x1/.x2` the lanes past `8N` are ignored but still given).
//!
//! `--batch` reads JSON lines `{"op": "lds128", "addrs": [32 ints]}` from stdin and writes exactly one JSON line
//! per input line, in order: `{"wavefronts": N, "ideal": I, "conflicts": C}`. A line that cannot be analysed
//! (bad JSON, unknown op, not 32 addresses, misaligned address, blank line) gets `{"error": "line K: reason"}`
//! instead, so output line K always answers input line K; after the whole input, if any line was bad, one summary
//! line goes to stderr and the exit code is 2.
use serde::Deserialize;
use std::io::{BufRead, BufWriter, Write};
use swizzle_core::bank::{self, check_addrs, map, Op};

#[derive(clap::Args)]
pub struct Args {
    /// The instruction: lds8..lds128, sts8..sts128, ldmatrix.x1|x2|x4[.trans], stmatrix.x1|x2|x4[.trans].
    #[arg(long, required_unless_present = "batch")]
    op: Option<String>,
    /// 32 comma-separated byte addresses, lane 0 first.
    #[arg(
        long,
        value_name = "A0,A1,...",
        required_unless_present = "batch",
        allow_hyphen_values = true
    )]
    addrs: Option<String>,
    /// Read JSON lines from stdin, write one JSON answer line per input line.
    #[arg(long, conflicts_with_all = ["op", "addrs"])]
    batch: bool,
}

pub fn run(args: Args) -> Result<(), String> {
    if args.batch {
        return batch();
    }
    let op: Op = args
        .op
        .unwrap_or_default()
        .parse()
        .map_err(|e| format!("--op: {e}"))?;
    let text = args.addrs.unwrap_or_default();
    let addrs: Vec<u32> = text
        .split(',')
        .map(|a| {
            a.trim()
                .parse::<u32>()
                .map_err(|_| format!("--addrs: {a:?} is not a byte address"))
        })
        .collect::<Result<_, _>>()?;
    let addrs = check_addrs(op, &addrs).map_err(|e| format!("--addrs: {e}"))?;
    let r = bank::report(op, &addrs);
    out!("{r}");
    out!("{}", map::ascii(&r));
    Ok(())
}

#[derive(Deserialize)]
struct Line {
    op: String,
    addrs: Vec<u32>,
}

/// Answer one input line: the JSON to print, or the reason it is bad.
fn answer(line: &str) -> Result<String, String> {
    let l: Line = serde_json::from_str(line)
        .map_err(|e| format!("not {{\"op\": ..., \"addrs\": [...]}}: {e}"))?;
    let op: Op = l.op.parse().map_err(|e| format!("{e}"))?;
    let addrs = check_addrs(op, &l.addrs).map_err(|e| e.to_string())?;
    let r = bank::report(op, &addrs);
    Ok(format!(
        r#"{{"wavefronts":{},"ideal":{},"conflicts":{}}}"#,
        r.wavefronts,
        r.ideal,
        r.conflicts()
    ))
}

fn batch() -> Result<(), String> {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut bad, mut first_bad) = (0usize, None);
    for (i, line) in stdin.lines().enumerate() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        let text = match answer(&line) {
            Ok(json) => json,
            Err(reason) => {
                let reason = format!("line {}: {reason}", i + 1);
                bad += 1;
                first_bad.get_or_insert_with(|| reason.clone());
                serde_json::json!({ "error": reason }).to_string()
            }
        };
        writeln!(out, "{text}").map_err(crate::stdout_failed)?;
    }
    out.flush().map_err(crate::stdout_failed)?;
    match first_bad {
        None => Ok(()),
        Some(first) => Err(format!(
            "{bad} bad input line(s), answered with {{\"error\"}}; first: {first}"
        )),
    }
}
