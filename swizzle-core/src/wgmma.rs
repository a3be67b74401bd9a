//! Hopper operand tiles: the TMA tensor map and the `wgmma` shared-memory descriptor derived from ONE spec.
//!
//! On sm_90 the smem swizzle is not a free choice of the kernel: the copy engine writes a tile with the tensor
//! map's `CU_TENSOR_MAP_SWIZZLE_*` mode, and `wgmma.mma_async` reads it through a 64-bit matrix descriptor whose
//! layout-type bits, leading / stride byte offsets (LBO / SBO) and base offset must describe the very same bytes.
//! A mismatch computes garbage silently. So an [`OperandTile`] (byte mode, element, majorness, tile extent) is
//! the only thing a kernel states, and everything else is derived here, `const`:
//!
//! ```text
//!   OperandTile { mode: SW128, elem: bf16, major: K, mn: 128, k: 64 }
//!     TMA:   swizzle = CU_TENSOR_MAP_SWIZZLE_128B, box = {64, 128} (inner K, outer MN), 1 box of 16384 B
//!     wgmma: layout type 1 (128B), LBO = 16 (unused for swizzled K-major, encoded 1), SBO = 1024, base offset 0
//!     smem:  base aligned to 1024 B (the pattern's period), k16 slice j at byte j * 32
//! ```
//!
//! **The canonical layouts** (PTX ISA, "Shared Memory Matrix Layout", in units of 16-byte chunks; `T` = elements
//! per chunk; `S` = swizzle bytes / 16, i.e. 1, 2, 4, 8 chunks per swizzled row for NONE, SW32, SW64, SW128):
//!
//! ```text
//!   K-major  NONE      ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))     core matrix = 8 rows x 16 B, contiguous
//!   K-major  SW32..128 ((8,m),(T,2k)) : ((S*T,SBO),(1,T))      rows S chunks apart, LBO unused (encoded 1)
//!   MN-major NONE      ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))  SBO steps 8 MN elements, LBO 8 k-rows
//!   MN-major SW32..128 ((T,S,m),(8,k)) : ((1,T,LBO),(S*T,SBO)) LBO steps one atom along MN, SBO 8 k-rows
//! ```
//!
//! **How TMA fills the tile.** A box is `inner x outer` elements, `inner` along the contiguous global dimension;
//! for a swizzled mode its inner extent is exactly the swizzled row (`swizzle bytes / elem bytes`), for NONE one
//! 16-byte chunk (the interleaved core-matrix column). A tile wider than one row along the contiguous dimension
//! is several boxes placed back to back (`boxes`, `box_bytes` apart). Reading the canonical layouts off that
//! placement gives the descriptor:
//!
//! ```text
//!   K-major  swizzled: row r at r * swz_bytes       -> SBO = 8 * swz_bytes, LBO unused
//!   K-major  NONE:     row r at r * 16, k-chunk c in box c (mn * 16 apart) -> SBO = 128, LBO = mn * 16
//!   MN-major swizzled: k-row r at r * swz_bytes, MN atom a in box a (k * swz_bytes apart)
//!                                                   -> SBO = 8 * swz_bytes, LBO = k * swz_bytes
//!   MN-major NONE:     k-row r at r * 16, MN chunk c in box c (k * 16 apart) -> LBO = 128, SBO = k * 16
//! ```
//!
//! The hardware applies the swizzle to *address* bits, so the tile must start at a multiple of the pattern's
//! period ([`ByteMode::alignment`]; TMA itself wants 128 B); then the base-offset field is 0 and a k16 slice is
//! addressed by adding its unswizzled byte offset to the descriptor's start address ([`OperandTile::k_step_bytes`]).

use crate::layout::{ldmatrix_swizzle, Smem};
use crate::units::{ByteMode, Elem};
use core::fmt;

/// Which dimension is contiguous in shared memory (and in global memory, since TMA copies boxes as they are).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    /// K contiguous: A row-major (M x K), B "N x K" (the `TN` GEMM). `imm-trans` = 0.
    K,
    /// M (for A) or N (for B) contiguous. `imm-trans` = 1; 16-bit types only.
    MN,
}

impl Major {
    /// `K` or `MN`.
    pub const fn name(self) -> &'static str {
        match self {
            Major::K => "K",
            Major::MN => "MN",
        }
    }

    /// The `imm-trans-a` / `imm-trans-b` operand of `wgmma.mma_async`.
    pub const fn imm_trans(self) -> u32 {
        match self {
            Major::K => 0,
            Major::MN => 1,
        }
    }
}

/// One operand's shared-memory tile, as TMA writes it and `wgmma` reads it: the ONE spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandTile {
    /// The TMA swizzle mode, which the descriptor must match.
    pub mode: ByteMode,
    /// The element type.
    pub elem: Elem,
    /// Which dimension is contiguous.
    pub major: Major,
    /// Extent along M (operand A) or N (operand B), in elements.
    pub mn: u32,
    /// Extent along K, in elements.
    pub k: u32,
}

/// Bytes of K one `wgmma` instruction consumes: k16 for 16-bit types, k8 for tf32, k32 for 8-bit: always 32.
pub const K_STEP_BYTES: u32 = 32;
/// Rows of a core matrix (and of the swizzle pattern's period).
pub const CORE_ROWS: u32 = 8;
/// Bytes of a core-matrix row: one 16-byte chunk.
pub const CHUNK_BYTES: u32 = 16;
/// TMA: the largest box extent in any dimension.
pub const TMA_MAX_BOX: u32 = 256;
/// TMA: shared-memory destinations are at least 128-byte aligned.
pub const TMA_MIN_ALIGN: u32 = 128;

/// Everything derived from an [`OperandTile`]: what the tensor map, the descriptor and the smem allocation use,
/// and what the generated header emits. Build it with [`OperandTile::params`]; check a hand-written one with
/// [`OperandTile::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandParams {
    /// The `CUtensorMapSwizzle` enumerator (its value is `tma_swizzle as u32`).
    pub tma_swizzle: ByteMode,
    /// Box extent along the contiguous global dimension (TMA `boxDim[0]`), elements.
    pub box_inner: u32,
    /// Box extent along the other dimension (TMA `boxDim[1]`), elements.
    pub box_outer: u32,
    /// Boxes per tile (along the contiguous dimension), each `box_bytes` after the previous one.
    pub boxes: u32,
    /// Bytes of one box in shared memory.
    pub box_bytes: u32,
    /// The descriptor's bits 62-63: 0 interleave (NONE), 1 = 128B, 2 = 64B, 3 = 32B.
    pub layout_type: u32,
    /// Leading dimension byte offset, in bytes (the descriptor holds `lbo >> 4`).
    pub lbo: u32,
    /// Stride dimension byte offset, in bytes.
    pub sbo: u32,
    /// The descriptor's base-offset field (bits 49-51): 0, since the tile starts on the pattern's period.
    pub base_offset: u32,
    /// Required alignment of the tile's shared-memory address, bytes.
    pub smem_align: u32,
    /// Bytes of the whole tile (the mbarrier's expected transaction count for it).
    pub tile_bytes: u32,
}

/// Why an [`OperandTile`] cannot be loaded by TMA and read by `wgmma`, or why hand-written parameters disagree with
/// the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperandError {
    /// `mn` is not a positive multiple of 8 (core-matrix rows) or exceeds a TMA box for its dimension.
    BadMn,
    /// `k` is not a positive multiple of one instruction's K (32 bytes), or of the box's inner extent.
    BadK,
    /// MN-major operands must be 16-bit (`wgmma` transposes only f16 / bf16).
    TransposeNeeds16Bit,
    /// The extent along the contiguous dimension is not a whole number of boxes.
    NotWholeBoxes,
    /// A hand-written parameter differs from the derived one: which field.
    Mismatch(&'static str),
    /// The 128-byte swizzle with 32-byte atoms is `tcgen05`'s (sm_100), for MN-major operands only.
    Atom32Layout,
}

impl OperandError {
    /// One-line reason.
    pub const fn message(&self) -> &'static str {
        match self {
            OperandError::BadMn => {
                "the MN extent must be a positive multiple of 8 rows and at most 256 (one TMA box)"
            }
            OperandError::BadK => {
                "the K extent must be a positive multiple of 32 bytes (one wgmma K step) and of the box's inner extent"
            }
            OperandError::TransposeNeeds16Bit => {
                "wgmma reads MN-major operands only for 16-bit types (f16, bf16)"
            }
            OperandError::NotWholeBoxes => {
                "the contiguous extent is not a whole number of swizzled rows (TMA boxes)"
            }
            OperandError::Mismatch(f) => f,
            OperandError::Atom32Layout => {
                "the 128-byte swizzle with 32-byte atoms is tcgen05's (sm_100), for MN-major operands only"
            }
        }
    }
}

impl fmt::Display for OperandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperandError::Mismatch(field) => {
                write!(f, "{field} disagrees with the operand tile's spec")
            }
            e => f.write_str(e.message()),
        }
    }
}

impl core::error::Error for OperandError {}

impl OperandTile {
    /// The tile; [`OperandTile::validate`] says whether TMA and wgmma can use it.
    pub const fn new(mode: ByteMode, elem: Elem, major: Major, mn: u32, k: u32) -> OperandTile {
        OperandTile {
            mode,
            elem,
            major,
            mn,
            k,
        }
    }

    /// Bytes of one row along the contiguous dimension inside a box: the swizzled row, or one 16-byte chunk.
    pub const fn row_bytes(&self) -> u32 {
        match self.mode {
            ByteMode::None => CHUNK_BYTES,
            m => m.swizzle_bytes(),
        }
    }

    /// Elements along the contiguous dimension per box.
    pub const fn row_elems(&self) -> u32 {
        self.row_bytes() / self.elem.bytes()
    }

    /// (contiguous extent, other extent) in elements.
    const fn extents(&self) -> (u32, u32) {
        match self.major {
            Major::K => (self.k, self.mn),
            Major::MN => (self.mn, self.k),
        }
    }

    /// The constraints, stated once.
    pub const fn validate(&self) -> Result<(), OperandError> {
        if matches!(self.major, Major::MN) && self.elem.bytes() != 2 {
            if let Err(e) = self.validate_layout() {
                return Err(e);
            }
            return Err(OperandError::TransposeNeeds16Bit);
        }
        self.validate_layout()
    }

    /// [`OperandTile::validate`] without `wgmma`'s 16-bit rule for MN-major operands: the shape rules TMA and
    /// the canonical layouts share (`tcgen05.mma` reads MN-major 8-bit and tf32 operands too).
    pub const fn validate_layout(&self) -> Result<(), OperandError> {
        let eb = self.elem.bytes();
        if self.mn == 0 || !self.mn.is_multiple_of(CORE_ROWS) || self.mn > TMA_MAX_BOX {
            return Err(OperandError::BadMn);
        }
        let step = K_STEP_BYTES / eb;
        if self.k == 0 || !self.k.is_multiple_of(step) || self.k > TMA_MAX_BOX {
            return Err(OperandError::BadK);
        }
        let (inner, _) = self.extents();
        if inner % self.row_elems() != 0 {
            return Err(OperandError::NotWholeBoxes);
        }
        Ok(())
    }

    /// The derived parameters; a compile error in `const` (panic elsewhere) if [`OperandTile::validate`] fails.
    ///
    /// ```
    /// use swizzle_core::wgmma::{Major, OperandTile};
    /// use swizzle_core::{swizzle, ByteMode, Elem};
    /// const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// const P: swizzle_core::wgmma::OperandParams = A.params();
    /// assert_eq!((P.box_inner, P.box_outer, P.boxes), (64, 128, 1));
    /// assert_eq!((P.layout_type, P.sbo, P.smem_align, P.tile_bytes), (1, 1024, 1024, 16384));
    /// // The same layout the `swizzle!` macro names, on bf16 element offsets.
    /// assert_eq!(A.smem_swizzle(), swizzle!(SW128, unit = bf16));
    /// ```
    pub const fn params(&self) -> OperandParams {
        if let Err(e) = self.validate_layout() {
            panic!("{}", e.message());
        }
        let rb = self.row_bytes();
        let (inner, outer) = self.extents();
        let boxes = inner / self.row_elems();
        let box_bytes = outer * rb;
        let (lbo, sbo) = match (self.major, self.mode) {
            // LBO is not used; CUTLASS and the PTX examples encode 1 (16 bytes).
            (Major::K, ByteMode::None) => (box_bytes, CORE_ROWS * CHUNK_BYTES),
            (Major::K, _) => (CHUNK_BYTES, CORE_ROWS * rb),
            (Major::MN, ByteMode::None) => (CORE_ROWS * CHUNK_BYTES, box_bytes),
            (Major::MN, _) => (box_bytes, CORE_ROWS * rb),
        };
        let align = self.mode.alignment();
        OperandParams {
            tma_swizzle: self.mode,
            box_inner: self.row_elems(),
            box_outer: outer,
            boxes,
            box_bytes,
            layout_type: layout_type(self.mode),
            lbo,
            sbo,
            base_offset: 0,
            smem_align: if align > TMA_MIN_ALIGN {
                align
            } else {
                TMA_MIN_ALIGN
            },
            tile_bytes: boxes * box_bytes,
        }
    }

    /// `Ok` when `p` is exactly what this spec derives; otherwise the first field that differs. `const`, so
    /// `const _: () = assert!(spec.check(&p).is_ok());` makes any hand-edited field a build error.
    ///
    /// The derived parameters pass:
    ///
    /// ```
    /// use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// use swizzle_core::{ByteMode, Elem};
    /// const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// const P: OperandParams = A.params();
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    ///
    /// and perturbing any one field fails the build (each block below is a `compile_fail` test, error E0080:
    /// the constant's evaluation panics):
    ///
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // The tensor map switched to 64B swizzling without the descriptor.
    /// const P: OperandParams = OperandParams { tma_swizzle: ByteMode::Sw64, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // The descriptor's layout type says 64B while TMA writes 128B.
    /// const P: OperandParams = OperandParams { layout_type: 2, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // A box narrower than the swizzled row.
    /// const P: OperandParams = OperandParams { box_inner: 32, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // A box taller than the tile.
    /// const P: OperandParams = OperandParams { box_outer: 256, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // A wrong leading byte offset.
    /// const P: OperandParams = OperandParams { lbo: 32, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // A wrong stride byte offset (rows 64 B apart instead of 128).
    /// const P: OperandParams = OperandParams { sbo: 512, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // A non-zero base offset on a 1024-aligned tile.
    /// const P: OperandParams = OperandParams { base_offset: 1, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // 128B-swizzled tiles at a 128-byte-aligned base.
    /// const P: OperandParams = OperandParams { smem_align: 128, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    /// ```compile_fail,E0080
    /// # use swizzle_core::wgmma::{Major, OperandTile, OperandParams};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // An expect-tx byte count that is not the tile's.
    /// const P: OperandParams = OperandParams { tile_bytes: 8192, ..A.params() };
    /// const _: () = assert!(A.check(&P).is_ok());
    /// ```
    pub const fn check(&self, p: &OperandParams) -> Result<(), OperandError> {
        let d = self.params();
        let mis = OperandError::Mismatch;
        if p.tma_swizzle as u32 != d.tma_swizzle as u32 {
            return Err(mis("tma_swizzle"));
        }
        if p.box_inner != d.box_inner || p.box_outer != d.box_outer {
            return Err(mis("box"));
        }
        if p.boxes != d.boxes || p.box_bytes != d.box_bytes || p.tile_bytes != d.tile_bytes {
            return Err(mis("box count / bytes"));
        }
        if p.layout_type != d.layout_type {
            return Err(mis("layout_type"));
        }
        if p.lbo != d.lbo {
            return Err(mis("lbo"));
        }
        if p.sbo != d.sbo {
            return Err(mis("sbo"));
        }
        if p.base_offset != d.base_offset {
            return Err(mis("base_offset"));
        }
        // A larger power-of-two alignment is fine; a smaller one breaks the address-based swizzle.
        if p.smem_align < d.smem_align || !p.smem_align.is_power_of_two() {
            return Err(mis("smem_align"));
        }
        Ok(())
    }

    /// The swizzle on element offsets that the tile's bytes follow (`swizzle!(SW128, unit = bf16)` = `Sw<3,3,3>`).
    pub const fn smem_swizzle(&self) -> crate::Swizzle {
        self.mode.swizzle_for(crate::Unit::Elems(self.elem))
    }

    /// Byte offset, from the tile's start, of the `j`-th K step (32 bytes of K: k16 for 16-bit types), to add to
    /// the descriptor's start address. Swizzled K-major: inside the swizzled row while it lasts, then the next
    /// box; NONE K-major: two 16-byte chunks, i.e. two boxes, per step; MN-major: `32 / elem bytes` k-rows.
    ///
    /// C++ twin: `k_step_bytes` in [`OperandTile::cuda_struct`].
    pub const fn k_step_bytes(&self, j: u32) -> u32 {
        let p = self.params();
        let kb = j * K_STEP_BYTES; // bytes of K before step j
        match self.major {
            Major::K => (kb / self.row_bytes()) * p.box_bytes + kb % self.row_bytes(),
            // MN-major: K is the row index: j * (32 / elem bytes) rows of row_bytes each.
            Major::MN => (kb / self.elem.bytes()) * self.row_bytes(),
        }
    }

    /// Byte offset of MN index `e` (a multiple of 8; for swizzled MN-major a multiple of the row) from the tile's
    /// start: where an `m64` slice of a taller tile begins.
    pub const fn mn_offset_bytes(&self, e: u32) -> u32 {
        let p = self.params();
        match self.major {
            Major::K => e * self.row_bytes(),
            Major::MN => {
                (e / self.row_elems()) * p.box_bytes + (e % self.row_elems()) * self.elem.bytes()
            }
        }
    }

    /// Where element (mn, k) of the tile lives, in bytes from the tile's start, following TMA's placement and
    /// the byte swizzle. The model the host tests compare with the canonical layouts.
    pub const fn byte_of(&self, mn: u32, k: u32) -> u32 {
        let p = self.params();
        let eb = self.elem.bytes();
        let (c, o) = match self.major {
            Major::K => (k, mn),
            Major::MN => (mn, k),
        };
        let bx = c / self.row_elems();
        let plain = bx * p.box_bytes + o * self.row_bytes() + (c % self.row_elems()) * eb;
        self.mode.swizzle().apply(plain)
    }

    /// The descriptor with start address `addr` (a shared-memory byte address).
    pub const fn descriptor(&self, addr: u32) -> u64 {
        let p = self.params();
        encode_descriptor(addr, p.lbo, p.sbo, p.base_offset, p.layout_type)
    }

    /// A C++ struct `NAME` with every derived constant, for the generated header. No formula is retyped in a
    /// `.cu`: the kernel builds descriptors and offsets through this struct.
    #[cfg(feature = "std")]
    pub fn cuda_struct(&self, name: &str) -> String {
        let p = self.params();
        let desc = self.descriptor(0);
        format!(
            "\n// {self}\n\
             struct {name} {{\n\
             \x20   static constexpr uint32_t TMA_SWIZZLE = {sw}u;  // {cu}\n\
             \x20   static constexpr uint32_t BOX_INNER = {bi}u, BOX_OUTER = {bo}u, BOXES = {nb}u, BOX_BYTES = {bb}u;\n\
             \x20   static constexpr uint32_t TILE_BYTES = {tb}u, SMEM_ALIGN = {al}u;\n\
             \x20   static constexpr uint32_t MN = {mn}u, K = {k}u, ROW_BYTES = {rb}u, ELEM_BYTES = {eb}u;\n\
             \x20   static constexpr uint32_t LAYOUT_TYPE = {lt}u, LBO = {lbo}u, SBO = {sbo}u, BASE_OFFSET = {bof}u;\n\
             \x20   static constexpr uint32_t IMM_TRANS = {tr}u;\n\
             \x20   /// The matrix descriptor with start address 0 (OR in `(addr & 0x3FFFF) >> 4`).\n\
             \x20   static constexpr unsigned long long DESC = {desc:#x}ull;\n\
             \x20   static SWZ_HD constexpr unsigned long long desc(uint32_t smem_addr) {{ return DESC | (unsigned long long)((smem_addr & 0x3FFFFu) >> 4); }}\n\
             \x20   /// desc(a) moved `bytes` (a multiple of 16) on: desc(a + bytes) while a + bytes < 2^18 (advance_descriptor).\n\
             \x20   static SWZ_HD constexpr unsigned long long desc_advance(unsigned long long d, uint32_t bytes) {{ return (d & 0xFFFFFFFF00000000ull) | (unsigned long long)(uint32_t)((uint32_t)d + (bytes >> 4)); }}\n\
             \x20   /// Byte offset of the j-th 32-byte K step (k16 for 16-bit types).\n\
             \x20   static SWZ_HD constexpr uint32_t k_step_bytes(uint32_t j) {{ {kstep} }}\n\
             \x20   /// Byte offset of MN index e (a multiple of 8).\n\
             \x20   static SWZ_HD constexpr uint32_t mn_offset_bytes(uint32_t e) {{ {mnoff} }}\n\
             }};\n",
            sw = p.tma_swizzle as u32,
            cu = p.tma_swizzle.cu_name(),
            bi = p.box_inner,
            bo = p.box_outer,
            nb = p.boxes,
            bb = p.box_bytes,
            tb = p.tile_bytes,
            al = p.smem_align,
            mn = self.mn,
            k = self.k,
            rb = self.row_bytes(),
            eb = self.elem.bytes(),
            lt = p.layout_type,
            lbo = p.lbo,
            sbo = p.sbo,
            bof = p.base_offset,
            tr = self.major.imm_trans(),
            kstep = match self.major {
                Major::K => format!(
                    "return (j * {K_STEP_BYTES}u / ROW_BYTES) * BOX_BYTES + (j * {K_STEP_BYTES}u) % ROW_BYTES;"
                ),
                Major::MN => format!("return (j * {K_STEP_BYTES}u / ELEM_BYTES) * ROW_BYTES;"),
            },
            mnoff = match self.major {
                Major::K => "return e * ROW_BYTES;".to_string(),
                Major::MN => "return (e / (ROW_BYTES / ELEM_BYTES)) * BOX_BYTES + (e % (ROW_BYTES / ELEM_BYTES)) * ELEM_BYTES;".to_string(),
            },
        )
    }
}

impl fmt::Display for OperandTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}-major {}x{} (MN x K)",
            self.mode,
            self.elem,
            self.major.name(),
            self.mn,
            self.k
        )
    }
}

/// The descriptor's 2-bit swizzle field for a byte mode (PTX: 0 none, 1 128B, 2 64B, 3 32B).
pub const fn layout_type(mode: ByteMode) -> u32 {
    match mode {
        ByteMode::None => 0,
        ByteMode::Sw128 => 1,
        ByteMode::Sw64 => 2,
        ByteMode::Sw32 => 3,
    }
}

/// Pack a `wgmma` matrix descriptor (PTX "Matrix Descriptor Format") through the encoder `tcgen05` shares,
/// [`Descriptor::encode`](crate::descriptor::Descriptor::encode) (`layout` is the Hopper 2-bit value):
///
/// ```text
///   bits  0-13  (start address & 0x3FFFF) >> 4
///   bits 16-29  (LBO & 0x3FFFF) >> 4
///   bits 32-45  (SBO & 0x3FFFF) >> 4
///   bits 49-51  base offset
///   bits 62-63  layout type (swizzle)
/// ```
///
/// ```
/// // The PTX ISA's example "K-major, 32B swizzling, tf32": SBO = 64 * 4 bytes encodes as 16, LBO as 1.
/// let d = swizzle_core::wgmma::encode_descriptor(0, 16, 256, 0, 3);
/// assert_eq!((d >> 16) & 0x3FFF, 1);
/// assert_eq!((d >> 32) & 0x3FFF, 16);
/// assert_eq!(d >> 62, 3);
/// ```
pub const fn encode_descriptor(
    addr: u32,
    lbo: u32,
    sbo: u32,
    base_offset: u32,
    layout: u32,
) -> u64 {
    use crate::descriptor::{Arch, Descriptor, SmemLayout};
    // The Hopper 2-bit layout value v is the Blackwell 3-bit code 2v: one encoder for both.
    let layout = match SmemLayout::from_code(((layout & 3) as u64) << 1) {
        Some(l) => l,
        None => SmemLayout::None,
    };
    Descriptor {
        base_offset,
        ..Descriptor::new(Arch::Sm90, addr, lbo, sbo, layout)
    }
    .encode()
}

/// The descriptor `d` with its start address moved `bytes` (a multiple of 16) further: `bytes >> 4` added to the
/// start-address field in the low 32 bits, the rest unchanged. While the new address stays below 2^18 (every
/// shared-memory address) the field cannot carry into the LBO above it, so for a descriptor of address `a`,
/// `advance_descriptor(descriptor(a), b) == descriptor(a + b)`: a kernel encodes a stage's descriptors once and
/// reaches each K step with one 32-bit add.
///
/// C++ twin: `desc_advance` in [`OperandTile::cuda_struct`].
///
/// ```
/// use swizzle_core::wgmma::{advance_descriptor, encode_descriptor};
/// let d = encode_descriptor(0x400, 16, 1024, 0, 1);
/// assert_eq!(advance_descriptor(d, 96), encode_descriptor(0x400 + 96, 16, 1024, 0, 1));
/// ```
pub const fn advance_descriptor(d: u64, bytes: u32) -> u64 {
    (d & !0xFFFF_FFFF) | ((d as u32).wrapping_add(bytes >> 4) as u64)
}

/// Fields of a descriptor: (start address bytes, LBO bytes, SBO bytes, base offset, layout type).
pub const fn decode_descriptor(d: u64) -> (u32, u32, u32, u32, u32) {
    (
        ((d & 0x3FFF) << 4) as u32,
        (((d >> 16) & 0x3FFF) << 4) as u32,
        (((d >> 32) & 0x3FFF) << 4) as u32,
        ((d >> 49) & 7) as u32,
        (d >> 62) as u32,
    )
}

/// One consumer warp's epilogue scratch in the Hopper GEMM: 16 rows x 64 columns of the output type `elem`,
/// swizzled for `stmatrix` writes and 16-byte row reads (the derived
/// [`ldmatrix_swizzle`] for 128-byte rows).
///
/// ```
/// use swizzle_core::wgmma::epilogue_tile;
/// use swizzle_core::Elem;
/// assert_eq!(epilogue_tile(Elem::BF16).footprint(), 16 * 64 * 2);
/// ```
pub const fn epilogue_tile(elem: Elem) -> Smem {
    Smem::row_major(16, 64, elem).with_swizzle(ldmatrix_swizzle(64 * elem.bytes(), elem))
}

/// The Hopper GEMM's dynamic shared memory as its kernel lays it out: the operand ring (`stages` x (A tile +
/// B tile)), one full and one empty 8-byte barrier per stage, block scaling's scale slot per stage, each consumer
/// warp's epilogue scratch ([`epilogue_tile`], its start aligned to 128 bytes), the split-K fp32 partial tile with
/// its two barriers, and slack to round the base up to the tiles' alignment. The kernel's spec and the planner's
/// variant ([`crate::plan::Variant::smem`]) both describe theirs with one, so the size the planner fits into the
/// device is the size the kernel asks for.
///
/// ```
/// use swizzle_core::wgmma::{epilogue_tile, GemmSmem, Major, OperandTile};
/// use swizzle_core::{ByteMode, Elem};
/// let tile = |rows| OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, rows, 64);
/// let smem = GemmSmem {
///     a: tile(128),
///     b: tile(256),
///     stages: 4,
///     epilogue_warps: 8,
///     epilogue_tile: epilogue_tile(Elem::BF16),
///     split: false,
///     scale_slot: 0,
/// };
/// // Ring, barriers, 8 warps' 2 KiB scratch + its 128-byte alignment, the ring's 1 KiB alignment.
/// assert_eq!(smem.bytes(), 4 * (16384 + 32768) + 64 + 8 * 2048 + 128 + 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmSmem {
    /// Operand A's tile (`BM x BK`), one per stage.
    pub a: OperandTile,
    /// Operand B's whole tile (`BN x BK`), one per stage.
    pub b: OperandTile,
    /// The ring's depth.
    pub stages: u32,
    /// Warps with an epilogue scratch tile each; 0 without the shared-memory epilogue.
    pub epilogue_warps: u32,
    /// One warp's epilogue scratch.
    pub epilogue_tile: Smem,
    /// Whether the K loop is split (the parts' fp32 `BM x BN` partial tile lives here).
    pub split: bool,
    /// Bytes of each stage's scale slot (block scaling: the stage's K-block scales of A's rows and of B's column
    /// segments, after the barriers); 0 without.
    pub scale_slot: u32,
}

impl GemmSmem {
    /// Bytes of every warp's epilogue scratch and the 128 bytes that align its start (0 without it).
    pub const fn epilogue_bytes(&self) -> u32 {
        if self.epilogue_warps > 0 {
            self.epilogue_warps * self.epilogue_tile.footprint() + 128
        } else {
            0
        }
    }

    /// Bytes of the split's fp32 partial tile and its two barriers (0 without a split); + 128 for the alignment
    /// the kernel gives it when no epilogue scratch comes first.
    pub const fn split_bytes(&self) -> u32 {
        if self.split {
            self.a.mn * self.b.mn * 4 + 16 + if self.epilogue_warps > 0 { 0 } else { 128 }
        } else {
            0
        }
    }

    /// All of it: ring, barriers, epilogue scratch, split partial, alignment slack.
    pub const fn bytes(&self) -> u32 {
        let (a, b) = (self.a.params(), self.b.params());
        let align = if a.smem_align > b.smem_align {
            a.smem_align
        } else {
            b.smem_align
        };
        self.stages * (a.tile_bytes + b.tile_bytes)
            + 16 * self.stages
            + self.stages * self.scale_slot
            + self.epilogue_bytes()
            + self.split_bytes()
            + align
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODES: [ByteMode; 4] = ByteMode::ALL;

    /// Every legal small spec: 16-bit and 32-bit elements, both majors, MN and K extents the kernels use.
    fn specs() -> impl Iterator<Item = OperandTile> {
        let mut v = Vec::new();
        for mode in MODES {
            for elem in [Elem::BF16, Elem::F16, Elem::TF32, Elem::E4M3] {
                for major in [Major::K, Major::MN] {
                    for mn in [8, 64, 128, 256] {
                        for k in [16, 32, 64, 128, 256] {
                            let t = OperandTile::new(mode, elem, major, mn, k);
                            if t.validate().is_ok() {
                                v.push(t);
                            }
                        }
                    }
                }
            }
        }
        assert!(v.len() > 100, "{}", v.len());
        v.into_iter()
    }

    /// The address the PTX canonical layout gives element (mn, k) of one wgmma operand slice, with the
    /// descriptor's LBO / SBO, starting at `start` (a k-step / mn offset already added), swizzle applied on
    /// absolute address bits. Written from the CuTe formulas in the module doc, in 16-byte chunk units `T`.
    fn canonical(t: &OperandTile, p: &OperandParams, start: u32, mn: u32, k: u32) -> u32 {
        let eb = t.elem.bytes();
        let te = CHUNK_BYTES / eb; // T: elements per chunk
        let s = t.row_bytes() / CHUNK_BYTES; // chunks per swizzled row (1 for NONE)
        let plain = match (t.major, t.mode) {
            // ((8,m),(T,2k)) : ((1T,SBO),(1,LBO)) -- T stride counted in elements: 1T = 16 bytes.
            (Major::K, ByteMode::None) => {
                (mn % 8) * 16 + (mn / 8) * p.sbo + (k % te) * eb + (k / te) * p.lbo
            }
            // ((8,m),(T,2k)) : ((S*T,SBO),(1,T)): k runs contiguously along the swizzled row.
            (Major::K, _) => (mn % 8) * s * 16 + (mn / 8) * p.sbo + k * eb,
            // ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
            (Major::MN, ByteMode::None) => {
                (mn % te) * eb + (mn / te) * p.sbo + (k % 8) * 16 + (k / 8) * p.lbo
            }
            // ((T,S,m),(8,k)) : ((1,T,LBO),(S*T,SBO))
            (Major::MN, _) => {
                (mn % (te * s)) * eb + (mn / (te * s)) * p.lbo + (k % 8) * s * 16 + (k / 8) * p.sbo
            }
        };
        t.mode.swizzle().apply(start + plain)
    }

    /// For every spec, every K step and every m64 / whole-tile slice a wgmma reads: the canonical layout with our
    /// descriptor fields, at our start offset, addresses exactly the bytes TMA wrote each element to.
    #[test]
    fn descriptor_reads_what_tma_wrote() {
        for t in specs() {
            let p = t.params();
            let kstep = K_STEP_BYTES / t.elem.bytes();
            let slice_mn = if t.mn >= 64 { 64 } else { t.mn };
            for j in 0..t.k / kstep {
                let mut m0 = 0;
                while m0 < t.mn {
                    if t.major == Major::MN && m0 % t.row_elems() != 0 {
                        m0 += slice_mn;
                        continue;
                    }
                    let start = t.k_step_bytes(j) + t.mn_offset_bytes(m0);
                    for mn in 0..slice_mn {
                        for k in 0..kstep {
                            assert_eq!(
                                canonical(&t, &p, start, mn, k),
                                t.byte_of(m0 + mn, j * kstep + k),
                                "{t}: step {j}, slice {m0}, element ({mn}, {k}), {p:?}"
                            );
                        }
                    }
                    m0 += slice_mn;
                }
            }
        }
    }

    /// TMA's placement is a bijection onto the tile's bytes (each element once, nothing outside the tile).
    #[test]
    fn tma_placement_is_a_bijection() {
        for t in specs() {
            let p = t.params();
            let eb = t.elem.bytes();
            let mut seen = vec![false; p.tile_bytes as usize];
            for mn in 0..t.mn {
                for k in 0..t.k {
                    let b = t.byte_of(mn, k);
                    assert!(b + eb <= p.tile_bytes, "{t}");
                    assert!(!seen[b as usize], "{t} ({mn},{k})");
                    seen[b as usize] = true;
                }
            }
            assert_eq!(
                seen.iter().filter(|s| **s).count() as u32 * eb,
                p.tile_bytes
            );
        }
    }

    /// The PTX ISA's worked examples (section "Canonical Layouts"), field by field.
    #[test]
    fn ptx_isa_examples() {
        // K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)) -> LBO 64*4, SBO 32*4.
        let t = OperandTile::new(ByteMode::None, Elem::TF32, Major::K, 16, 16);
        let p = t.params();
        assert_eq!((p.lbo, p.sbo, p.layout_type), (16 * 16, 128, 0));
        // K-major, 32B swizzle, tf32: SBO = 64*4 = 256, LBO "1 (assumed)".
        let p = OperandTile::new(ByteMode::Sw32, Elem::TF32, Major::K, 16, 8).params();
        assert_eq!((p.lbo >> 4, p.sbo, p.layout_type), (1, 256, 3));
        // MN-major, 32B swizzle, bf16: atoms 16 MN elements wide; SBO = 8 k-rows of 32 B... the ISA's example
        // packs two MN atoms then two k groups (LBO 256 B, SBO 512 B); ours packs k first: SBO 256 B.
        let p = OperandTile::new(ByteMode::Sw32, Elem::BF16, Major::MN, 32, 16).params();
        assert_eq!((p.lbo, p.sbo, p.layout_type), (16 * 32, 8 * 32, 3));
        // The 128B mode: SW128 K-major bf16, the Hopper GEMM's tile.
        let p = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 256, 64).params();
        assert_eq!(
            (p.box_inner, p.box_outer, p.sbo, p.layout_type, p.smem_align),
            (64, 256, 1024, 1, 1024)
        );
        assert_eq!(p.tma_swizzle.cu_name(), "CU_TENSOR_MAP_SWIZZLE_128B");
    }

    /// Every single-field perturbation of derived parameters is refused (the const `check` the compile_fail
    /// doctests use), and the derived ones pass.
    #[test]
    fn check_refuses_every_perturbation() {
        for t in specs() {
            let p = t.params();
            assert_eq!(t.check(&p), Ok(()));
            let mut bad: Vec<OperandParams> = Vec::new();
            for m in MODES.into_iter().filter(|m| *m != p.tma_swizzle) {
                bad.push(OperandParams {
                    tma_swizzle: m,
                    ..p
                });
            }
            for lt in (0..4).filter(|l| *l != p.layout_type) {
                bad.push(OperandParams {
                    layout_type: lt,
                    ..p
                });
            }
            let fields: [fn(&mut OperandParams); 7] = [
                |q| q.box_inner *= 2,
                |q| q.box_outer /= 2,
                |q| q.lbo += 16,
                |q| q.sbo *= 2,
                |q| q.base_offset = 1,
                |q| q.smem_align /= 2,
                |q| q.tile_bytes += 16,
            ];
            for perturb in fields {
                let mut q = p;
                perturb(&mut q);
                bad.push(q);
            }
            for b in bad {
                assert!(t.check(&b).is_err(), "{t}: {b:?} accepted");
            }
        }
    }

    #[test]
    fn advancing_a_descriptor_is_encoding_the_later_address() {
        // Every 16-byte start address of the shared-memory window, every K step and stage offset a kernel adds.
        for t in specs() {
            let p = t.params();
            let steps: Vec<u32> = (0..t.k / (K_STEP_BYTES / t.elem.bytes()))
                .map(|j| t.k_step_bytes(j))
                .chain((1..8).map(|s| s * p.tile_bytes))
                .collect();
            for addr in (0..(1u32 << 18)).step_by(16) {
                for &b in &steps {
                    if addr + b >= 1 << 18 {
                        continue;
                    }
                    assert_eq!(
                        advance_descriptor(t.descriptor(addr), b),
                        t.descriptor(addr + b),
                        "{t}: {addr:#x} + {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn descriptor_round_trip() {
        for t in specs() {
            let p = t.params();
            for addr in [0u32, 1024, 4096, 227 * 1024 - 1024] {
                let d = t.descriptor(addr + t.k_step_bytes(1));
                assert_eq!(
                    decode_descriptor(d),
                    (addr + t.k_step_bytes(1), p.lbo, p.sbo, 0, p.layout_type),
                    "{t}"
                );
            }
        }
    }

    #[test]
    fn validate_refuses() {
        let ok = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
        assert_eq!(ok.validate(), Ok(()));
        let refused = [
            (OperandTile { mn: 12, ..ok }, OperandError::BadMn),
            (OperandTile { mn: 512, ..ok }, OperandError::BadMn),
            (OperandTile { k: 8, ..ok }, OperandError::BadK),
            // 48 bf16 = 96 bytes: not a whole 128-byte swizzled row.
            (OperandTile { k: 48, ..ok }, OperandError::NotWholeBoxes),
            (
                OperandTile {
                    elem: Elem::F32,
                    major: Major::MN,
                    ..ok
                },
                OperandError::TransposeNeeds16Bit,
            ),
        ];
        for (t, e) in refused {
            assert_eq!(t.validate(), Err(e), "{t}");
        }
        assert!(OperandError::BadK.to_string().contains("32 bytes"));
    }

    #[test]
    fn cuda_struct_names_every_constant() {
        let t = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
        let s = t.cuda_struct("GemmA");
        for needle in [
            "struct GemmA",
            "TMA_SWIZZLE = 3u",
            "CU_TENSOR_MAP_SWIZZLE_128B",
            "BOX_INNER = 64u, BOX_OUTER = 128u",
            "SBO = 1024u",
            "LAYOUT_TYPE = 1u",
            "SMEM_ALIGN = 1024u",
            &format!("DESC = {:#x}ull", t.descriptor(0)),
        ] {
            assert!(s.contains(needle), "{needle} missing in\n{s}");
        }
    }
}
