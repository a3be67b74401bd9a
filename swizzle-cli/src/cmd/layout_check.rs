//! `swz check desc 0x... --operand SPEC [--arch sm_90|sm_100]`, `swz check idesc 0x... --mma A:B:D:MxN:AMAJ:BMAJ` and
//! `swz check tma --dtype T --dims D0,D1 --strides S1 --box B0,B1 --swizzle MODE [--interleave NONE] --smem ADDR
//! --operand SPEC`: does the descriptor (or the `cuTensorMapEncodeTiled` arguments) your kernel builds match the
//! operand tile it means? "matches", or every mismatch in words (mode, units, alignment, major-ness, stride, box
//! vs swizzle span) and exit 1. `SPEC` is `MODE:ELEM:MAJOR:MNxK` (`SW128:bf16:K:128x64`), the operand one
//! instruction reads (for a descriptor) or one box fills (for a map).
//!
//! These two sit beside the bank-conflict `swz check` (which takes flags only): `main` hands `check desc` and
//! `check tma` here before clap parses the bank check's arguments.
use crate::output::{self, Verdict};
use clap::Parser;
use swizzle_core::descriptor::Descriptor;
use swizzle_core::descriptor::Operand;
use swizzle_core::tma::{TmaInterleave, TmaMap, TmaSwizzle};

#[derive(Parser)]
#[command(
    name = "swz check",
    about = "Check a descriptor or a TMA map against an operand tile"
)]
struct Cli {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// A shared-memory matrix descriptor (wgmma / tcgen05.mma) against the operand it should read.
    Desc(DescArgs),
    /// cuTensorMapEncodeTiled's arguments against the operand tile the kernel reads.
    Tma(TmaArgs),
    /// A tcgen05.mma instruction descriptor against the instruction the kernel means.
    Idesc(IdescArgs),
}

#[derive(clap::Args)]
struct IdescArgs {
    /// The instruction descriptor, hex.
    value: String,
    /// The instruction: A:B:D:MxN:AMAJOR:BMAJOR[:cta_group] (e.g. bf16:bf16:f32:128x256:K:K).
    #[arg(long, value_name = "A:B:D:MxN:AMAJ:BMAJ")]
    mma: String,
}

#[derive(clap::Args)]
struct DescArgs {
    /// The descriptor, hex.
    value: String,
    /// The operand: MODE:ELEM:MAJOR:MNxK, the shared-memory tile the descriptor points into, as TMA wrote it
    /// (e.g. SW128:bf16:K:128x64).
    #[arg(long, value_name = "MODE:ELEM:MAJOR:MNxK")]
    operand: String,
    /// MN elements one instruction reads (wgmma's A: 64); default the tile's MN. Strides it never takes are not
    /// compared (CuTe encodes them 0).
    #[arg(long, value_name = "N")]
    mma_mn: Option<u32>,
    /// sm_90 (wgmma) or sm_100 (tcgen05).
    #[arg(long, default_value = "sm_90")]
    arch: String,
}

#[derive(clap::Args)]
struct TmaArgs {
    /// tensorDataType: an element type (bf16, f16, f32, tf32, u8, e4m3, ...) or CU_TENSOR_MAP_DATA_TYPE_*.
    #[arg(long)]
    dtype: String,
    /// globalDim, elements, contiguous dimension first: D0,D1[,...] (2 to 5).
    #[arg(long)]
    dims: String,
    /// globalStrides, bytes, of dimensions 1.. (rank - 1 values).
    #[arg(long)]
    strides: String,
    /// boxDim, elements: B0,B1[,...].
    #[arg(long = "box")]
    boxes: String,
    /// swizzle: NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B (or CU_TENSOR_MAP_SWIZZLE_*).
    #[arg(long)]
    swizzle: String,
    /// interleave: NONE, 16B, 32B.
    #[arg(long, default_value = "NONE")]
    interleave: String,
    /// The shared-memory destination address (hex with 0x, or decimal).
    #[arg(long)]
    smem: String,
    /// The operand tile one box fills: MODE:ELEM:MAJOR:MNxK.
    #[arg(long, value_name = "MODE:ELEM:MAJOR:MNxK")]
    operand: String,
}

/// Runs `swz check desc|tma ...` when the command line is one, and exits; returns otherwise. `root` is the whole
/// `swz` command, for a usage error's one line ([`output::usage_line`]).
pub fn dispatch(root: fn() -> clap::Command) {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let is_ours = argv.get(1).is_some_and(|a| a == "check")
        && argv
            .get(2)
            .is_some_and(|a| a == "desc" || a == "tma" || a == "idesc");
    if !is_ours {
        return;
    }
    let cli = match Cli::try_parse_from(argv.iter().skip(1)) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => output::refuse(format_args!(
            "{} (see `swz check {} --help`)",
            output::usage_line(&e, root),
            argv[2].to_string_lossy()
        )),
    };
    output::finish(match cli.what {
        What::Desc(a) => desc(a),
        What::Tma(a) => tma(a),
        What::Idesc(a) => idesc(a),
    })
}

/// The operand, refused (exit 2) unless it is a tile TMA and the architecture's MMA can use.
fn operand(text: &str, arch: swizzle_core::descriptor::Arch) -> Result<Operand, String> {
    let op = swizzle_core::operand::parse_operand(text).map_err(|e| format!("--operand: {e}"))?;
    op.validate(arch)
        .map_err(|e| format!("--operand {}: {e}", text.trim()))?;
    Ok(op)
}

/// Print each finding on stdout; the verdict names how many.
fn verdict(what: &str, found: Vec<String>) -> Verdict {
    if found.is_empty() {
        outln!("matches");
        return Verdict::Clean;
    }
    for f in &found {
        outln!("{f}");
    }
    Verdict::Conflicts(format!(
        "{what} does not match the operand: {} mismatch{}",
        found.len(),
        if found.len() == 1 { "" } else { "es" }
    ))
}

fn desc(a: DescArgs) -> Result<Verdict, String> {
    let bits = crate::cmd::decode::parse_hex(&a.value, 64)?;
    let arch = crate::cmd::decode::parse_arch(&a.arch)?;
    let tile = operand(&a.operand, arch)?;
    let d = match Descriptor::decode(bits, arch) {
        Ok(d) => d,
        Err(e) => {
            let hint = match (arch, swizzle_core::descriptor::field(bits, 46, 3)) {
                (swizzle_core::descriptor::Arch::Sm90, 1) => {
                    " (its version bits say sm_100: --arch sm_100)"
                }
                _ => "",
            };
            return Ok(Verdict::Conflicts(format!(
                "{bits:#x} is not a valid {arch} descriptor: {e}{hint}"
            )));
        }
    };
    let slice = match a.mma_mn {
        Some(n) if n == 0 || n > tile.tile.mn || n % 8 != 0 => {
            return Err(format!(
                "--mma-mn: {n} is not a multiple of 8 within the tile's MN = {}",
                tile.tile.mn
            ))
        }
        Some(n) => n,
        None => tile.tile.mn,
    };
    let found = d
        .mismatches_operand(&tile, slice)
        .iter()
        .map(|m| m.to_string())
        .collect();
    Ok(verdict("the descriptor", found))
}

fn list_u64(flag: &str, text: &str) -> Result<Vec<u64>, String> {
    text.split(',')
        .map(|t| {
            let t = t.trim();
            t.parse::<u64>()
                .map_err(|_| format!("--{flag}: {t:?} is not a non-negative integer"))
        })
        .collect()
}

/// `CU_TENSOR_MAP_DATA_TYPE_*` or an element type: its bytes.
fn dtype_bytes(text: &str) -> Result<u32, String> {
    let t = text.trim();
    if let Some(d) = t.strip_prefix("CU_TENSOR_MAP_DATA_TYPE_") {
        return Ok(match d {
            "UINT8" | "16U4_ALIGN8B" | "16U4_ALIGN16B" | "16U6_ALIGN16B" => 1,
            "UINT16" | "FLOAT16" | "BFLOAT16" => 2,
            "UINT32" | "INT32" | "FLOAT32" | "FLOAT32_FTZ" | "TFLOAT32" | "TFLOAT32_FTZ" => 4,
            "INT64" | "FLOAT64" | "UINT64" => 8,
            _ => return Err(format!("--dtype: unknown data type {t:?}")),
        });
    }
    crate::args::parse_elem(t)
        .map(|e| e.bytes())
        .map_err(|e| e.replacen("--elem", "--dtype", 1))
}

fn parse_addr(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => crate::cmd::decode::parse_hex(h, 32),
        None => t
            .parse::<u64>()
            .map_err(|_| format!("{t:?} is not an address")),
    }
    .map_err(|e| format!("--smem: {e}"))?;
    u32::try_from(v).map_err(|_| format!("--smem: {t} is past the 32-bit shared-memory window"))
}

fn tma(a: TmaArgs) -> Result<Verdict, String> {
    // A map's tile only needs TMA's rules (any element width in either major): sm_100's.
    let tile = operand(&a.operand, swizzle_core::descriptor::Arch::Sm100)?;
    let dims = list_u64("dims", &a.dims)?;
    let strides = list_u64("strides", &a.strides)?;
    let boxes = list_u64("box", &a.boxes)?;
    let rank = dims.len();
    if !(1..=5).contains(&rank) {
        return Err(format!(
            "--dims: {rank} dimensions; a tensor map has 1 to 5"
        ));
    }
    if boxes.len() != rank {
        return Err(format!(
            "--box: {} values for {rank} dimensions",
            boxes.len()
        ));
    }
    if strides.len() + 1 != rank {
        return Err(format!(
            "--strides: {} values; a rank-{rank} map takes {} (dimensions 1..)",
            strides.len(),
            rank - 1
        ));
    }
    let swizzle = TmaSwizzle::parse(&a.swizzle).ok_or_else(|| {
        format!(
            "--swizzle: unknown mode {:?} (NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B)",
            a.swizzle
        )
    })?;
    let interleave = TmaInterleave::parse(&a.interleave).ok_or_else(|| {
        format!(
            "--interleave: expected NONE, 16B or 32B, got {:?}",
            a.interleave
        )
    })?;
    let elem_bytes = dtype_bytes(&a.dtype)?;
    let smem = parse_addr(&a.smem)?;
    let map = TmaMap::from_lists(
        elem_bytes, &dims, &strides, &boxes, interleave, swizzle, smem,
    );
    let found = map
        .mismatches_operand(&tile)
        .iter()
        .map(|m| m.to_string())
        .collect();
    Ok(verdict("the tensor map", found))
}

fn idesc(a: IdescArgs) -> Result<Verdict, String> {
    use swizzle_core::tcgen05::InstrDesc;
    let bits = crate::cmd::decode::parse_hex(&a.value, 32)? as u32;
    let meant = swizzle_core::operand::parse_instr(&a.mma).map_err(|e| format!("--mma: {e}"))?;
    meant.validate().map_err(|e| format!("--mma: {e}"))?;
    let read = match InstrDesc::decode(bits, meant.kind(), meant.cta_group) {
        Ok(d) => d,
        Err(e) => {
            return Ok(Verdict::Conflicts(format!(
                "{bits:#x} is not a valid kind::{} instruction descriptor: {e}",
                meant.kind().name()
            )))
        }
    };
    let shape = swizzle_core::operand::instr_text;
    let found = match read.first_difference(&meant) {
        None => Vec::new(),
        Some(field) => vec![format!(
            "{field}: the descriptor encodes {}, the instruction is {} (expected {:#010x})",
            shape(&read),
            shape(&meant),
            meant.encode()
        )],
    };
    Ok(verdict("the instruction descriptor", found))
}
