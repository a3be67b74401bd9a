//! `swz apply --swizzle B,M,S --range A..B`: print `apply(o)` for each offset `o` in `[A, B)`, one per line.
//!
//! `--swizzle` also takes the `Display` form `Sw<B,M,S>` and the byte-mode names `NONE`, `SW32`, `SW64`, `SW128`
//! (which act on byte addresses). Bad input is one line on stderr and exit code 2 (see `main.rs`).
use std::io::Write;
use swizzle_core::units::ByteMode;
use swizzle_core::Swizzle;

#[derive(clap::Args)]
pub struct Args {
    /// The swizzle: `B,M,S` (e.g. `3,3,3`), `Sw<B,M,S>`, two layers `B,M,S+B,M,S` (left first), or a byte mode
    /// (`SW32`, `SW64`, `SW128`, `NONE`).
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    swizzle: String,
    /// Offsets `A..B`: from A (included) to B (excluded); `A..=B` includes B. At most 1048576 offsets.
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    range: String,
}

/// A swizzle as written on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `B,M,S`: acts on whatever unit the offsets count.
    Plain(Swizzle),
    /// A named byte mode: acts on byte addresses.
    Mode(ByteMode),
}

impl Spec {
    /// The swizzle as given (for a mode: on bytes).
    pub fn swizzle(self) -> Swizzle {
        match self {
            Spec::Plain(sw) => sw,
            Spec::Mode(m) => m.swizzle(),
        }
    }
}

/// Parse `--swizzle`: a byte-mode name, or `B,M,S` / `Sw<B,M,S>` ([`parse_bms`]).
pub fn parse_swizzle(text: &str) -> Result<Spec, String> {
    if let Some(mode) = ByteMode::from_name(text.trim()) {
        return Ok(Spec::Mode(mode));
    }
    parse_bms(text)
        .map(Spec::Plain)
        .map_err(|e| format!("--swizzle: {e}"))
}

/// The byte modes as a list for messages: `NONE, SW32, SW64, SW128`.
fn mode_names() -> String {
    ByteMode::ALL.map(|m| m.name()).join(", ")
}

/// `B,M,S` or `Sw<B,M,S>`, with a message that names what is wrong: a mis-spelled byte mode, a field that is not
/// an integer, a negative `B` or `M`, a number out of range; otherwise the swizzle rule's own message.
pub fn parse_bms(text: &str) -> Result<Swizzle, String> {
    let t = text.trim();
    let inner = t
        .strip_prefix("Sw<")
        .and_then(|r| r.strip_suffix('>'))
        .unwrap_or(t);
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        let upper = t.to_ascii_uppercase();
        if ByteMode::from_name(&upper).is_some() {
            return Err(format!(
                "{t:?}: byte modes are upper-case, did you mean {upper}? (modes: {})",
                mode_names()
            ));
        }
        if upper.starts_with("SW") || upper == "NONE" {
            return Err(format!(
                "unknown byte mode {t:?}: expected one of {} (they act on byte addresses)",
                mode_names()
            ));
        }
        return Err(format!(
            "expected B,M,S (e.g. 3,3,3), Sw<B,M,S>, or a byte mode ({}), got {t:?}",
            mode_names()
        ));
    }
    let mut fields = [0i64; 3];
    for (i, (key, part)) in ["B", "M", "S"].iter().zip(&parts).enumerate() {
        let digits = part.strip_prefix('-').unwrap_or(part);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{key} = {part:?} is not an integer (in {t:?})"));
        }
        let n: i64 = part
            .parse()
            .map_err(|_| format!("{key} = {part} is out of range: B + M + |S| must be <= 32"))?;
        if n < 0 && *key != "S" {
            return Err(format!("{key} must be >= 0, got {n}"));
        }
        if n.unsigned_abs() > 32 {
            return Err(format!(
                "{key} = {n} is out of range: B + M + |S| must be <= 32"
            ));
        }
        fields[i] = n;
    }
    Swizzle::try_new(fields[0] as u32, fields[1] as u32, fields[2] as i32)
        .map_err(|e| e.to_string())
}

/// Most offsets one `apply` prints (split a larger range into several calls).
pub const MAX_OFFSETS: u64 = 1 << 20;

/// Parse `A..B` (B excluded) or `A..=B` (B included, so `u32::MAX` is reachable) into the inclusive range of
/// `u32` offsets; `None` for an empty range. At most [`MAX_OFFSETS`] offsets.
pub fn parse_range(text: &str) -> Result<Option<std::ops::RangeInclusive<u32>>, String> {
    let bad = || {
        format!(
            "--range: expected A..B (B excluded) or A..=B (B included) with 0 <= A <= B <= {}, got {text:?}",
            u32::MAX
        )
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (b, inclusive) = match b.strip_prefix('=') {
        Some(b) => (b, true),
        None => (b, false),
    };
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    let count = (b - a) as u64 + inclusive as u64;
    if count > MAX_OFFSETS {
        return Err(format!(
            "--range {text}: {count} offsets, more than {MAX_OFFSETS} in one call; split the range"
        ));
    }
    Ok(match (count, inclusive) {
        (0, _) => None,
        (_, true) => Some(a..=b),
        (_, false) => Some(a..=b - 1),
    })
}

pub fn run(args: Args) -> Result<(), String> {
    // Two layers `B,M,S+B,M,S` (applied left first), or one swizzle / byte mode.
    let sw: swizzle_core::SwizzleFn = if args.swizzle.contains('+') {
        args.swizzle
            .parse()
            .map_err(|e| format!("--swizzle: {e}"))?
    } else {
        swizzle_core::SwizzleFn::Single(parse_swizzle(&args.swizzle)?.swizzle())
    };
    let range = parse_range(&args.range)?;
    let mut out = std::io::BufWriter::new(crate::output::stdout());
    let write_err = crate::stdout_failed;
    for o in range.into_iter().flatten() {
        writeln!(out, "{}", sw.apply(o)).map_err(write_err)?;
        // A closed pipe (`swz apply ... | head`): nothing is left to decide, stop.
        if crate::output::stdout_closed() {
            break;
        }
    }
    out.flush().map_err(write_err)
}
