//! `swz decode desc 0x... [--arch sm_90|sm_100] [--major K|MN] [--elem bf16]` and
//! `swz decode idesc 0x... [--kind f16|tf32|f8f6f4] [--cta-group 1|2]`: every field of a descriptor your kernel
//! built, in words, and (for a shared-memory descriptor) the byte each (row, k) element of the first atoms lands on.
//!
//! Exit status: 0 decoded; 1 the bits are not a valid descriptor (reserved bits, a missing sm_100 version, an
//! invalid code or shape: the fields are printed, then the reason); 2 bad input (not hex, too long, unknown arch).
use crate::output::Verdict;
use swizzle_core::descriptor::{element_address, field, Arch, Descriptor};
use swizzle_core::tcgen05::{InstrDesc, Kind, MmaType};
use swizzle_core::wgmma::Major;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// A 64-bit shared-memory matrix descriptor (wgmma on sm_90, tcgen05.mma on sm_100).
    Desc(DescArgs),
    /// A 32-bit tcgen05.mma instruction descriptor.
    Idesc(IdescArgs),
}

#[derive(clap::Args)]
struct DescArgs {
    /// The descriptor, hex (`0x` optional), at most 16 digits.
    value: String,
    /// The architecture: sm_90 (wgmma) or sm_100 (tcgen05; also sm_100a, sm_103, ...).
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// How the operand is stored, for the element map: K or MN (contiguous dimension).
    #[arg(long, default_value = "K")]
    major: String,
    /// The element type, for the element map.
    #[arg(long, default_value = "bf16")]
    elem: String,
}

#[derive(clap::Args)]
struct IdescArgs {
    /// The descriptor, hex (`0x` optional), at most 8 digits.
    value: String,
    /// The instruction's kind (the type codes mean different types per kind); default: read from A's type code.
    #[arg(long)]
    kind: Option<String>,
    /// The instruction's cta_group (1 or 2); default 2 when M = 256, else 1.
    #[arg(long)]
    cta_group: Option<u32>,
}

/// Hex digits (optional `0x`), at most `bits / 4` of them.
pub fn parse_hex(text: &str, bits: u32) -> Result<u64, String> {
    let t = text.trim();
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t)
        .replace('_', "");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "{t:?} is not a hex number (e.g. 0x4000004000010040)"
        ));
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() as u32 > bits / 4 {
        return Err(format!(
            "{t:?} is too long: {} is {bits} bits ({} hex digits)",
            if bits == 64 {
                "a shared-memory descriptor"
            } else {
                "an instruction descriptor"
            },
            bits / 4
        ));
    }
    u64::from_str_radix(
        if significant.is_empty() {
            "0"
        } else {
            significant
        },
        16,
    )
    .map_err(|_| format!("{t:?} is not a hex number"))
}

/// `--arch`.
pub fn parse_arch(text: &str) -> Result<Arch, String> {
    Arch::from_name(text.trim()).ok_or_else(|| {
        format!("--arch: unknown architecture {text:?} (sm_90 or sm_100; also sm_90a, sm_100a, sm_103a, sm_110a)")
    })
}

fn parse_major(text: &str) -> Result<Major, String> {
    match text.trim() {
        "K" => Ok(Major::K),
        "MN" => Ok(Major::MN),
        t => Err(format!("--major: expected K or MN, got {t:?}")),
    }
}

pub fn run(args: Args) -> Result<Verdict, String> {
    match args.what {
        What::Desc(a) => desc(a),
        What::Idesc(a) => idesc(a),
    }
}

fn desc(a: DescArgs) -> Result<Verdict, String> {
    let bits = parse_hex(&a.value, 64)?;
    let arch = parse_arch(&a.arch)?;
    let major = parse_major(&a.major)?;
    let elem = crate::args::parse_elem(&a.elem)?;
    let d = Descriptor::fields(bits, arch);
    let instr = match arch {
        Arch::Sm90 => "wgmma.mma_async",
        Arch::Sm100 => "tcgen05.mma",
    };
    outln!("shared-memory descriptor {bits:#018x} ({arch}, {instr})");
    outln!(
        "  bits  0-13  start address   {:#x} ({} x 16 B)",
        d.start,
        field(bits, 0, 14)
    );
    outln!(
        "  bits 16-29  LBO             {} B ({} x 16 B){}",
        d.lbo,
        field(bits, 16, 14),
        if d.lbo_absolute {
            " -- an absolute address (LBO mode 1)"
        } else {
            ""
        }
    );
    outln!(
        "  bits 32-45  SBO             {} B ({} x 16 B)",
        d.sbo,
        field(bits, 32, 14)
    );
    outln!(
        "  bits 46-48  version         {:#05b}{}",
        field(bits, 46, 3),
        match arch {
            Arch::Sm90 => " (reserved on sm_90: 0)",
            Arch::Sm100 => " (tcgen05: 0b001)",
        }
    );
    outln!(
        "  bits 49-51  base offset     {} (the start's row in the swizzle pattern; it needs {})",
        d.base_offset,
        d.needed_base_offset()
    );
    if arch == Arch::Sm100 {
        outln!(
            "  bit  52     LBO mode        {} ({})",
            field(bits, 52, 1),
            if d.lbo_absolute {
                "absolute address, sm_103a only"
            } else {
                "byte offset"
            }
        );
    }
    let (lo, code) = match arch {
        Arch::Sm90 => ("62-63", field(bits, 62, 2)),
        Arch::Sm100 => ("61-63", field(bits, 61, 3)),
    };
    outln!(
        "  bits {lo}  layout type     {code} = {} ({}, repeats every {} B)",
        d.layout.words(),
        d.layout.byte_swizzle(),
        d.layout.period()
    );
    if let Err((_, e)) = Descriptor::bits_problem(bits, arch, 0) {
        let all = all_bits_problems(bits, arch);
        for p in &all {
            outln!("  problem: {p}");
        }
        return Ok(Verdict::Conflicts(format!(
            "{bits:#x} is not a valid {arch} descriptor: {e}"
        )));
    }
    if d.layout == swizzle_core::descriptor::SmemLayout::Sw128Atom32 && major == Major::K {
        outln!("(the 32-byte-atom layout is MN-major only: --major MN for its element map)");
        return Ok(Verdict::Clean);
    }
    element_map(&d, major, elem.bytes());
    Ok(Verdict::Clean)
}

fn all_bits_problems(bits: u64, arch: Arch) -> Vec<String> {
    let mut v = Vec::new();
    let mut from = 0;
    while let Err((i, e)) = Descriptor::bits_problem(bits, arch, from) {
        v.push(e.to_string());
        from = i + 1;
    }
    v
}

/// The first atoms: K-major, rows 0-15 by the instruction's 32 bytes of K; MN-major, the instruction's K rows by
/// the first two swizzle atoms (at most 16 chunks) of MN. One column per 16-byte chunk: its elements follow it
/// contiguously.
fn element_map(d: &Descriptor, major: Major, eb: u32) {
    let t = 16 / eb; // elements per chunk
    let kstep = 32 / eb;
    outln!(
        "element (mn, k) -> shared-memory byte address, {}-major, {eb}-byte elements (--major, --elem); each cell is \
         a 16-byte chunk, its {t} elements contiguous:",
        major.name()
    );
    match major {
        Major::K => {
            let cols: Vec<u32> = (0..kstep).step_by(t as usize).collect();
            out!("  {:>6}", "");
            for k in &cols {
                out!(" {:>10}", format!("k {}-{}", k, k + t - 1));
            }
            outln!();
            for mn in 0..16 {
                out!("  mn {mn:>3}");
                for k in &cols {
                    out!(
                        " {:>10}",
                        format!("{:#x}", element_address(d, major, eb, mn, *k))
                    );
                }
                outln!();
            }
        }
        Major::MN => {
            let chunks = (2 * d.layout.row_bytes() / 16).min(16);
            let cols: Vec<u32> = (0..chunks).map(|c| c * t).collect();
            out!("  {:>6}", "");
            for m in &cols {
                out!(" {:>8}", format!("mn {m}"));
            }
            outln!();
            for k in 0..kstep.min(16) {
                out!("  k {k:>4}");
                for m in &cols {
                    out!(
                        " {:>8}",
                        format!("{:#x}", element_address(d, major, eb, *m, k))
                    );
                }
                outln!();
            }
        }
    }
}

fn idesc(a: IdescArgs) -> Result<Verdict, String> {
    let bits = parse_hex(&a.value, 32)? as u32;
    let kind = match &a.kind {
        Some(k) => Kind::from_name(k.trim())
            .ok_or_else(|| format!("--kind: expected f16, tf32 or f8f6f4, got {k:?}"))?,
        None => InstrDesc::guess_kind(bits),
    };
    let m = ((bits >> 24) & 0x1F) << 4;
    let g = match a.cta_group {
        Some(g @ (1 | 2)) => g,
        Some(g) => return Err(format!("--cta-group: expected 1 or 2, got {g}")),
        None if m == 256 => 2,
        None => 1,
    };
    let f = |lo: u32, w: u32| (bits >> lo) & ((1 << w) - 1);
    let ty = |code: u32| {
        MmaType::from_code(kind, code).map_or_else(
            || format!("{code} = undefined for kind::{}", kind.name()),
            |t| format!("{code} = {}", t.name()),
        )
    };
    let yes = |b: u32, y: &str, n: &str| if b == 1 { y.to_string() } else { n.to_string() };
    outln!(
        "instruction descriptor {bits:#010x} (tcgen05.mma, kind::{}{}, cta_group::{g}{})",
        kind.name(),
        if a.kind.is_none() {
            ", from A's type code; --kind to change"
        } else {
            ""
        },
        if a.cta_group.is_none() {
            ", --cta-group to change"
        } else {
            ""
        }
    );
    outln!("  bits  0-1   sparsity selector  {}", f(0, 2));
    outln!(
        "  bit   2     sparsity           {}",
        yes(f(2, 1), "1 = sparse", "0 = dense")
    );
    outln!("  bit   3     saturate           {}", f(3, 1));
    outln!(
        "  bits  4-5   D type             {}",
        match f(4, 2) {
            0 => "0 = f16".to_string(),
            1 => "1 = f32".to_string(),
            c => format!("{c} = invalid for these kinds"),
        }
    );
    outln!("  bit   6     reserved           {}", f(6, 1));
    outln!("  bits  7-9   A type             {}", ty(f(7, 3)));
    outln!("  bits 10-12  B type             {}", ty(f(10, 3)));
    outln!("  bit  13     negate A           {}", f(13, 1));
    outln!("  bit  14     negate B           {}", f(14, 1));
    outln!(
        "  bit  15     A major            {}",
        yes(f(15, 1), "1 = MN-major (transposed)", "0 = K-major")
    );
    outln!(
        "  bit  16     B major            {}",
        yes(f(16, 1), "1 = MN-major (transposed)", "0 = K-major")
    );
    outln!(
        "  bits 17-22  N >> 3             {} -> N = {}",
        f(17, 6),
        f(17, 6) << 3
    );
    outln!("  bit  23     reserved           {}", f(23, 1));
    outln!("  bits 24-28  M >> 4             {} -> M = {m}", f(24, 5));
    outln!("  bit  29     reserved           {}", f(29, 1));
    outln!(
        "  bits 30-31  max shift (.ws)    {}",
        match f(30, 2) {
            0 => "0 = none".to_string(),
            s => format!("{s} = {}", 4 << s),
        }
    );
    match InstrDesc::decode(bits, kind, g) {
        Ok(d) => {
            outln!(
                "  shape       m{}n{}k{}, D in tensor memory: {} rows per CTA x {} columns of 32 bits (tcgen05.alloc {} columns)",
                d.m,
                d.n,
                kind.k(),
                d.rows_per_cta(),
                d.tmem_columns(),
                d.tmem_alloc_columns()
            );
            Ok(Verdict::Clean)
        }
        Err(e) => Ok(Verdict::Conflicts(format!(
            "{bits:#x} is not a valid kind::{} instruction descriptor: {e}",
            kind.name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_bounds() {
        assert_eq!(parse_hex("0x4000004000010040", 64), Ok(0x4000004000010040));
        assert_eq!(parse_hex("ffffffffffffffff", 64), Ok(u64::MAX));
        assert_eq!(parse_hex("0x000000000000000001", 64), Ok(1));
        assert!(parse_hex("0x1ffffffffffffffff", 64)
            .unwrap_err()
            .contains("too long"));
        assert!(parse_hex("0x123456789", 32)
            .unwrap_err()
            .contains("too long"));
        assert!(parse_hex("0xg1", 64).unwrap_err().contains("not a hex"));
        assert!(parse_hex("", 64).is_err());
        assert!(parse_hex("0x", 64).is_err());
        assert!(parse_hex("-1", 64).is_err());
    }
}
