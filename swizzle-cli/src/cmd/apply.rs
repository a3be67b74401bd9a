//! `swz apply --swizzle B,M,S --range A..B`: print `apply(o)` for each offset `o` in `[A, B)`, one per line.
//!
//! `--swizzle` also takes the `Display` form `Sw<B,M,S>` and the byte-mode names `NONE`, `SW32`, `SW64`, `SW128`
//! (which act on byte addresses). Bad input is one line on stderr and exit code 2 (see `crate::output`).
use std::io::Write;

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
    // Two layers `B,M,S+B,M,S` (applied left first), one swizzle, or a byte mode (on the offsets given).
    let sw = crate::args::parse_swizzle("--swizzle", &args.swizzle)?.swizzle_fn();
    let range = parse_range(&args.range)?;
    let mut out = std::io::BufWriter::new(crate::output::stdout());
    let write_err = crate::output::stdout_failed;
    for o in range.into_iter().flatten() {
        writeln!(out, "{}", sw.apply(o)).map_err(write_err)?;
        // A closed pipe (`swz apply ... | head`): nothing is left to decide, stop.
        if crate::output::stdout_closed() {
            break;
        }
    }
    out.flush().map_err(write_err)
}
