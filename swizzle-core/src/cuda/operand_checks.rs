//! An operand tile's C++ struct with its Blackwell descriptor and the checks a C++ kernel writes as
//! `static_assert`s on the descriptors and tensor maps it builds itself: each `constexpr bool` names one thing
//! (mode, units, stride, version, alignment, box), so a failing assertion's message says what is wrong.
//!
//! ```
//! use swizzle_core::cuda::operand_struct;
//! use swizzle_core::wgmma::{Major, OperandTile};
//! use swizzle_core::{ByteMode, Elem};
//! let s = operand_struct("GemmA", &OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 64, 64));
//! assert!(s.contains("UMMA_DESC = 0x4000404000010000ull"));
//! assert!(s.contains("static SWZ_HD constexpr bool desc_sbo_in_bytes(unsigned long long d)"));
//! ```

use crate::descriptor::{strides_used, Arch, Descriptor, SmemLayout};
use crate::wgmma::OperandTile;

/// [`OperandTile::cuda_struct`] plus the sm_100 descriptor and the check functions (the tile is taken as one
/// instruction's operand: its MN is the instruction's).
pub fn operand_struct(name: &str, tile: &OperandTile) -> String {
    let base = tile.cuda_struct(name);
    let body = base
        .strip_suffix("};\n")
        .expect("cuda_struct ends its struct");
    let layout = SmemLayout::of_mode(tile.mode);
    let (lbo_used, sbo_used) = strides_used(tile, tile.mn);
    let umma = Descriptor::of_tile(Arch::Sm100, tile, 0).encode();
    format!(
        "{body}\
         \x20   /// sm_100 (tcgen05.mma): version bits 46-48 = 0b001, the 3-bit layout code at 61-63.\n\
         \x20   static constexpr unsigned long long UMMA_DESC = {umma:#x}ull;\n\
         \x20   static SWZ_HD constexpr unsigned long long umma_desc(uint32_t smem_addr) {{ return UMMA_DESC | (unsigned long long)((smem_addr & 0x3FFFFu) >> 4); }}\n\
         \x20   static constexpr uint32_t LAYOUT_CODE = {code}u, PATTERN_BYTES = {period}u;\n\
         \x20   static constexpr bool LBO_USED = {lbo_used}, SBO_USED = {sbo_used};\n\
         \x20   // Checks of a descriptor built elsewhere (sm100: tcgen05, else wgmma), each for a static_assert:\n\
         \x20   //   static_assert({name}::desc_mode_ok(d, false), \"{name}: descriptor swizzle mode\");\n\
         \x20   static SWZ_HD constexpr bool desc_mode_ok(unsigned long long d, bool sm100) {{ return sm100 ? ((d >> 61) & 7u) == LAYOUT_CODE : ((d >> 61) & 7u) == (LAYOUT_TYPE << 1); }}\n\
         \x20   static SWZ_HD constexpr bool desc_version_ok(unsigned long long d, bool sm100) {{ return ((d >> 46) & 7u) == (sm100 ? 1u : 0u); }}\n\
         \x20   /// LBO / SBO hold the byte count itself instead of 16-byte units.\n\
         \x20   static SWZ_HD constexpr bool desc_lbo_in_bytes(unsigned long long d) {{ return LBO_USED && LBO != 0 && ((d >> 16) & 0x3FFFu) == (LBO & 0x3FFFu); }}\n\
         \x20   static SWZ_HD constexpr bool desc_sbo_in_bytes(unsigned long long d) {{ return SBO_USED && SBO != 0 && ((d >> 32) & 0x3FFFu) == (SBO & 0x3FFFu); }}\n\
         \x20   static SWZ_HD constexpr bool desc_lbo_ok(unsigned long long d) {{ return !LBO_USED || ((d >> 16) & 0x3FFFu) == ((LBO & 0x3FFFFu) >> 4); }}\n\
         \x20   static SWZ_HD constexpr bool desc_sbo_ok(unsigned long long d) {{ return !SBO_USED || ((d >> 32) & 0x3FFFu) == ((SBO & 0x3FFFFu) >> 4); }}\n\
         \x20   /// The base offset says which row of the swizzle pattern the start address is on (0 on the pattern's period).\n\
         \x20   static SWZ_HD constexpr bool desc_base_ok(unsigned long long d) {{ return ((d >> 49) & 7u) == (PATTERN_BYTES <= 128u ? 0u : (uint32_t)((((d & 0x3FFFu) << 4) % PATTERN_BYTES) >> 7)); }}\n\
         \x20   static SWZ_HD constexpr bool desc_ok(unsigned long long d, bool sm100) {{ return desc_mode_ok(d, sm100) && desc_version_ok(d, sm100) && desc_lbo_ok(d) && desc_sbo_ok(d) && desc_base_ok(d); }}\n\
         \x20   // Checks of cuTensorMapEncodeTiled's arguments and the copy's destination.\n\
         \x20   static SWZ_HD constexpr bool tma_swizzle_ok(uint32_t cu_swizzle) {{ return cu_swizzle == TMA_SWIZZLE; }}\n\
         \x20   static SWZ_HD constexpr bool tma_box_ok(uint32_t box0, uint32_t box1) {{ return box0 == BOX_INNER && box1 == BOX_OUTER; }}\n\
         \x20   static SWZ_HD constexpr bool smem_aligned(uint32_t smem_addr) {{ return smem_addr % SMEM_ALIGN == 0u; }}\n\
         }};\n",
        code = layout.code(),
        period = layout.period(),
        lbo_used = lbo_used,
        sbo_used = sbo_used,
    )
}

/// A `tcgen05.mma` instruction descriptor's C++ struct: the 32 bits, the shape, the tensor-memory columns of its
/// accumulator, and `idesc_ok(d)` for a `static_assert` on a descriptor built elsewhere.
///
/// ```
/// use swizzle_core::cuda::instr_desc_struct;
/// use swizzle_core::tcgen05::{InstrDesc, MmaType};
/// use swizzle_core::wgmma::Major;
/// let d = InstrDesc::new(MmaType::BF16, MmaType::BF16, true, 128, 256, Major::K, Major::K);
/// let s = instr_desc_struct("Mma", &d);
/// assert!(s.contains("IDESC = 0x8400490u") && s.contains("TMEM_COLUMNS = 256u"));
/// ```
pub fn instr_desc_struct(name: &str, d: &crate::tcgen05::InstrDesc) -> String {
    format!(
        "\n// tcgen05.mma.cta_group::{g}.kind::{kind} m{m}n{n}k{k}, A {a} {am}-major, B {b} {bm}-major, D {dt}\n\
         struct {name} {{\n\
         \x20   static constexpr uint32_t IDESC = {bits:#x}u;\n\
         \x20   static constexpr uint32_t M = {m}u, N = {n}u, K = {k}u, CTA_GROUP = {g}u;\n\
         \x20   /// Accumulator columns in tensor memory per CTA, and what tcgen05.alloc must give (a power of two >= 32).\n\
         \x20   static constexpr uint32_t TMEM_COLUMNS = {cols}u, TMEM_ALLOC_COLUMNS = {alloc}u;\n\
         \x20   static SWZ_HD constexpr bool idesc_ok(uint32_t d) {{ return d == IDESC; }}\n\
         }};\n",
        g = d.cta_group,
        kind = d.kind().name(),
        m = d.m,
        n = d.n,
        k = d.kind().k(),
        a = d.a.name(),
        b = d.b.name(),
        am = d.a_major.name(),
        bm = d.b_major.name(),
        dt = if d.d_f32 { "f32" } else { "f16" },
        bits = d.encode(),
        cols = d.tmem_columns(),
        alloc = d.tmem_alloc_columns(),
    )
}
