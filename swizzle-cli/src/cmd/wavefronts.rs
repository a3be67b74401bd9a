//! `swz wavefronts --op OP --addrs a0,a1,...,a31` and `swz wavefronts --batch`
//!
//! One instruction: prints the report of [`swizzle_core::bank::report`] (wavefronts, ideal, conflicts, and per
//! phase the worst bank with its lanes) and the bank map. Addresses are byte addresses in lane order; all 32 are
//! required (for `ldmatrix/stmatrix.x1/.x2` the lanes past `8N` are ignored but still given).
//!
//! `--batch` reads JSON lines from stdin (see [`BATCH_HELP`], which is also the `--help` text): one answer line
//! per non-blank input line, in order, each carrying its input line number. Input is read as bytes, so a line
//! that is not UTF-8 is one bad line, not the end of the batch.
use serde::Deserialize;
use std::io::{BufRead, BufWriter, Write};
use swizzle_core::bank::{self, check_addrs, map, Op};

/// The `--batch` format, for `--help` and the README.
pub const BATCH_HELP: &str = "\
--batch: JSON lines on stdin, one instruction per line:
  {\"op\": \"lds128\", \"addrs\": [a0, ..., a31]}
One JSON line on stdout per non-blank input line, in input order, with the input line number (1-based):
  {\"line\":1,\"wavefronts\":4,\"ideal\":4,\"conflicts\":0}
  {\"line\":2,\"error\":\"unknown op \\\"lds7\\\" ...\"}      (bad JSON, unknown op, not 32 addresses, misaligned, not UTF-8)
Blank lines are skipped; a line longer than 65536 bytes (its \\n or \\r\\n not counted) is one bad line. Exit status 0 when every line was answered, 2 when any line was bad (after all lines
are answered; one summary line on stderr).";

#[derive(clap::Args)]
#[command(after_help = BATCH_HELP)]
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
    /// Read JSON lines from stdin, write one JSON answer line per non-blank input line (format below).
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

/// Answer one input line: the JSON fields to print, or the reason it is bad.
fn answer(line: &str) -> Result<String, String> {
    let l: Line = serde_json::from_str(line)
        .map_err(|e| format!("not {{\"op\": ..., \"addrs\": [...]}}: {e}"))?;
    let op: Op = l.op.parse().map_err(|e| format!("{e}"))?;
    let addrs = check_addrs(op, &l.addrs).map_err(|e| e.to_string())?;
    let r = bank::report(op, &addrs);
    Ok(format!(
        r#""wavefronts":{},"ideal":{},"conflicts":{}"#,
        r.wavefronts,
        r.ideal,
        r.conflicts()
    ))
}

/// One input line as bytes: its answer line, or for a bad line the error line and `line K: reason`; `None` for
/// a blank line (skipped).
fn answer_bytes(number: usize, bytes: &[u8]) -> Option<Result<String, (String, String)>> {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let answer = match std::str::from_utf8(bytes) {
        Ok(text) => answer(text),
        Err(e) => Err(format!(
            "not UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        )),
    };
    Some(match answer {
        Ok(fields) => Ok(format!(r#"{{"line":{number},{fields}}}"#)),
        Err(reason) => Err((
            format!(
                r#"{{"line":{number},"error":{}}}"#,
                serde_json::Value::from(reason.as_str())
            ),
            format!("line {number}: {reason}"),
        )),
    })
}

/// Longest input line `--batch` reads (an instruction is well under 1 KiB); a longer one is a bad line, skipped
/// without being held in memory.
pub const MAX_LINE_BYTES: usize = 1 << 16;

/// Read one line (with its newline) into `buf`, keeping at most [`MAX_LINE_BYTES`] + 2 bytes of it (the longest
/// accepted line and a `\r\n`); the rest of a longer line is read and dropped. Returns the bytes read in all (0 at
/// the end of input).
fn read_line_bounded(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(total);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = (MAX_LINE_BYTES + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        total += take;
        if done {
            return Ok(total);
        }
    }
}

fn batch() -> Result<(), String> {
    let mut stdin = std::io::stdin().lock();
    // A closed pipe drops the answers but not the reading: the exit status still says whether any line was bad.
    let mut out = BufWriter::new(crate::output::stdout());
    let (mut bad, mut first_bad) = (0usize, None);
    let mut buf = Vec::new();
    for number in 1.. {
        buf.clear();
        let n =
            read_line_bounded(&mut stdin, &mut buf).map_err(|e| format!("reading stdin: {e}"))?;
        if n == 0 {
            break;
        }
        // The limit is on the line's text: its ending (`\n`, `\r\n`, or none at the end of input) is not counted.
        let ending = if buf.ends_with(b"\r\n") {
            2
        } else {
            usize::from(buf.ends_with(b"\n"))
        };
        let answered = if buf.len() - ending > MAX_LINE_BYTES {
            Some(Err((
                format!(r#"{{"line":{number},"error":"longer than {MAX_LINE_BYTES} bytes"}}"#),
                format!("line {number}: longer than {MAX_LINE_BYTES} bytes"),
            )))
        } else {
            answer_bytes(number, &buf)
        };
        let text = match answered {
            None => continue,
            Some(Ok(json)) => json,
            Some(Err((json, reason))) => {
                bad += 1;
                first_bad.get_or_insert(reason);
                json
            }
        };
        writeln!(out, "{text}").map_err(crate::output::stdout_failed)?;
    }
    out.flush().map_err(crate::output::stdout_failed)?;
    match first_bad {
        None => Ok(()),
        Some(first) => Err(format!(
            "{bad} bad input line(s), answered with {{\"line\", \"error\"}}; first: {first}"
        )),
    }
}
