//! The header's operand checks as host C++ (g++): `static_assert`s on a descriptor or tensor map a kernel built
//! itself pass on the right values and fail, with the kernel author's message, on each bug class (mode, units,
//! stride, version, alignment, box vs swizzle span).
#[path = "common/gxx.rs"]
mod gxx;

use std::path::PathBuf;
use swizzle_core::cuda::Header;
use swizzle_core::descriptor::{Arch, Descriptor, SmemLayout};
use swizzle_core::wgmma::{Major, OperandTile};
use swizzle_core::{ByteMode, Elem};

const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);

fn workdir(test: &str) -> PathBuf {
    let dir = gxx::workdir("header_operand_checks", test);
    let mma = swizzle_core::operand::parse_instr("bf16:bf16:f32:128x256:K:K").unwrap();
    let h = Header::new()
        .try_operand("GemmA", A)
        .unwrap()
        .try_instr_desc("Mma", mma)
        .unwrap();
    std::fs::write(dir.join("swz.cuh"), h.render()).unwrap();
    dir
}

/// One bad value per bug class, and which check must refuse it.
fn bad_cases() -> Vec<(&'static str, String)> {
    let good = Descriptor::of_tile(Arch::Sm90, &A, 0x400);
    let enc = |d: Descriptor| format!("{:#x}ull", d.encode());
    vec![
        // The kernel assumes 128B, the descriptor says 64B.
        (
            "desc_mode_ok",
            format!(
                "desc_mode_ok({}, false)",
                enc(Descriptor {
                    layout: SmemLayout::Sw64,
                    ..good
                })
            ),
        ),
        // SBO written in bytes: the field holds 1024, not 64.
        (
            "desc_sbo_ok",
            format!(
                "desc_sbo_ok({:#x}ull)",
                good.encode() & !(0x3FFFu64 << 32) | (1024u64 << 32)
            ),
        ),
        // A stride taken from the extent, not the layout (512 instead of 1024).
        (
            "desc_sbo_ok",
            format!("desc_sbo_ok({})", enc(Descriptor { sbo: 512, ..good })),
        ),
        // A Hopper descriptor handed to tcgen05: no version bits.
        (
            "desc_version_ok",
            format!("desc_version_ok({}, true)", enc(good)),
        ),
        // A start 128-aligned instead of 1024-aligned, base offset 0.
        (
            "desc_base_ok",
            format!(
                "desc_base_ok({})",
                enc(Descriptor {
                    start: 0x480,
                    ..good
                })
            ),
        ),
        // A tensor map encoded with the 64-byte swizzle.
        ("tma_swizzle_ok", "tma_swizzle_ok(2u)".to_string()),
        // A box of 32 bf16 = 64 bytes: half a swizzled row.
        ("tma_box_ok", "tma_box_ok(32u, 128u)".to_string()),
        // The TMA destination 128-aligned.
        ("smem_aligned", "smem_aligned(0x480u)".to_string()),
    ]
}

#[test]
fn right_values_pass_and_each_bug_class_is_refused() {
    let dir = workdir("values");
    let good = Descriptor::of_tile(Arch::Sm90, &A, 0x400).encode();
    let umma = Descriptor::of_tile(Arch::Sm100, &A, 0x400).encode();
    let mut src = String::from("#include \"swz.cuh\"\n#include <cstdio>\nusing swz::GemmA;\n");
    // The right values, at compile time, as a kernel writes them.
    src.push_str(&format!(
        "static_assert(GemmA::desc_ok({good:#x}ull, false), \"wgmma descriptor\");\n\
         static_assert(GemmA::desc_ok({umma:#x}ull, true), \"tcgen05 descriptor\");\n\
         static_assert(GemmA::desc_ok(GemmA::desc(0x400u), false) && GemmA::desc_ok(GemmA::umma_desc(0x2400u), true), \"own\");\n\
         static_assert(GemmA::desc_ok(GemmA::desc(0x400u + GemmA::k_step_bytes(3)), false), \"a later K step\");\n\
         static_assert(GemmA::desc_advance(GemmA::desc(0x400u), GemmA::k_step_bytes(3) + 2 * GemmA::TILE_BYTES) == GemmA::desc(0x400u + GemmA::k_step_bytes(3) + 2 * GemmA::TILE_BYTES), \"advanced\");\n\
         static_assert(GemmA::tma_swizzle_ok(3u) && GemmA::tma_box_ok(64u, 128u) && GemmA::smem_aligned(0x400u), \"map\");\n\
         static_assert(!GemmA::desc_sbo_in_bytes({good:#x}ull), \"units\");\n\
         static_assert(swz::Mma::idesc_ok(0x08400490u) && !swz::Mma::idesc_ok(0x08400490u | (1u << 23)), \"idesc\");\n\
         static_assert(swz::Mma::TMEM_ALLOC_COLUMNS == 256u, \"tmem\");\n\
         int main() {{\n"
    ));
    for (check, call) in bad_cases() {
        src.push_str(&format!(
            "    std::printf(\"{check} %d\\n\", int(GemmA::{call}));\n"
        ));
    }
    src.push_str(&format!(
        "    std::printf(\"units %d\\n\", int(GemmA::desc_sbo_in_bytes({:#x}ull)));\n    return 0;\n}}\n",
        good & !(0x3FFFu64 << 32) | (1024u64 << 32)
    ));
    let exe = gxx::compile(&dir, "main.cpp", &src, &[]).unwrap_or_else(|e| panic!("g++:\n{e}"));
    let out = gxx::run(&exe);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), bad_cases().len() + 1, "{out}");
    for (line, (check, _)) in lines.iter().zip(bad_cases()) {
        assert_eq!(*line, format!("{check} 0"), "{out}");
    }
    // The bytes-instead-of-units SBO is named as such.
    assert_eq!(lines.last().unwrap(), &"units 1");
}

#[test]
fn a_failed_check_is_a_compile_error_with_the_kernels_message() {
    let dir = workdir("compile_error");
    let bad = Descriptor {
        layout: SmemLayout::Sw64,
        ..Descriptor::of_tile(Arch::Sm90, &A, 0x400)
    };
    let src = format!(
        "#include \"swz.cuh\"\n\
         static_assert(swz::GemmA::desc_mode_ok({:#x}ull, false), \"GemmA: the descriptor's swizzle mode is not the tile's\");\n\
         int main() {{ return 0; }}\n",
        bad.encode()
    );
    let err = gxx::compile(&dir, "main.cpp", &src, &[]).expect_err("the assertion must fail");
    assert!(
        err.contains("the descriptor's swizzle mode is not the tile's"),
        "{err}"
    );
}
