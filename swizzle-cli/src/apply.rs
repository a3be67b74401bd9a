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
    /// Offsets `A..B`: from A (included) to B (excluded).
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

/// Parse `--swizzle`: a byte-mode name, or anything `Swizzle::from_str` takes (the rule's message on failure).
pub fn parse_swizzle(text: &str) -> Result<Spec, String> {
    if let Some(mode) = ByteMode::from_name(text.trim()) {
        return Ok(Spec::Mode(mode));
    }
    text.parse::<Swizzle>()
        .map(Spec::Plain)
        .map_err(|e| format!("--swizzle: {e}"))
}

/// Parse `A..B` into the half-open range of `u32` offsets (`B <= u32::MAX`).
pub fn parse_range(text: &str) -> Result<std::ops::Range<u32>, String> {
    let bad = || {
        format!(
            "--range: expected A..B with 0 <= A <= B <= {}, got {text:?}",
            u32::MAX
        )
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    Ok(a..b)
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
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let write_err = crate::stdout_failed;
    for o in range {
        writeln!(out, "{}", sw.apply(o)).map_err(write_err)?;
    }
    out.flush().map_err(write_err)
}
