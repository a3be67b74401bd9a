//! The shared-memory matrix descriptor of `wgmma` (sm_90) and `tcgen05.mma` (sm_100), encoded, decoded and
//! checked against an [`OperandTile`]: ONE encoder for both, since their bits agree wherever both define them.
//!
//! ```text
//!   bit  63..61  60......53  52   51..49  48..46  45.......32  31 30  29.......16  15 14  13........0
//!        layout  0           LBO  base    version  SBO >> 4     0  0   LBO >> 4     0  0   start >> 4
//!                            mode offset  (0b001 on sm_100, 0 on sm_90)
//! ```
//!
//! - **start, LBO, SBO**: `(x & 0x3FFFF) >> 4` (PTX's `matrix-descriptor-encode`): 16-byte units of an 18-bit
//!   byte value. A byte count written unshifted (`1024` instead of `64`) reads back 16 times too large.
//! - **layout** (the swizzle, [`SmemLayout`]): sm_100 has 3 bits, 0 none, 1 128-byte with 32-byte atoms,
//!   2 128-byte, 4 64-byte, 6 32-byte (3, 5, 7 invalid). sm_90 has the top 2 of them (bits 62-63: 0 none,
//!   1 128B, 2 64B, 3 32B) and bit 61 reserved: the Hopper value `v` is the Blackwell value `2v`, so one field
//!   encodes both.
//! - **version** (bits 46-48): `0b001` on sm_100, reserved (0) on sm_90.
//! - **base offset** (bits 49-51): the row of the swizzle pattern the start address falls on, when the pattern
//!   does not start on its period (PTX: `(pattern start address >> 7) & 7`); 0 for a tile on its period.
//! - **LBO mode** (bit 52, sm_100): 0 = LBO is a byte offset, 1 = an absolute byte address (sm_103a only).
//!
//! ```
//! use swizzle_core::descriptor::{Arch, Descriptor, SmemLayout};
//! let d = Descriptor::new(Arch::Sm100, 0x400, 16, 1024, SmemLayout::Sw128);
//! assert_eq!(d.encode(), 0x4000_4040_0001_0040);
//! assert_eq!(Descriptor::decode(0x4000_4040_0001_0040, Arch::Sm100), Ok(d));
//! // The same operand on Hopper: no version bit, the same layout bits.
//! assert_eq!(Descriptor { arch: Arch::Sm90, ..d }.encode(), 0x4000_0040_0001_0040);
//! ```

use crate::units::ByteMode;
use crate::wgmma::{Major, OperandTile, CHUNK_BYTES, CORE_ROWS};
use crate::Swizzle;
use core::fmt;

/// The architecture a descriptor is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// Hopper: `wgmma.mma_async`.
    Sm90,
    /// Blackwell (sm_100, sm_103, sm_110): `tcgen05.mma`.
    Sm100,
}

impl Arch {
    /// `sm_90` or `sm_100`.
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm90 => "sm_90",
            Arch::Sm100 => "sm_100",
        }
    }

    /// `sm_90`, `sm_90a`, `sm_100`, `sm_100a`, `sm_100f`, `sm_103`, `sm_103a`, `sm_103f`, `sm_110`, `sm_110a`,
    /// `sm_110f` (the tcgen05 targets share the descriptor).
    pub fn from_name(name: &str) -> Option<Arch> {
        match name {
            "sm_90" | "sm_90a" => Some(Arch::Sm90),
            "sm_100" | "sm_100a" | "sm_100f" | "sm_103" | "sm_103a" | "sm_103f" | "sm_110"
            | "sm_110a" | "sm_110f" => Some(Arch::Sm100),
            _ => None,
        }
    }

    /// The version field (bits 46-48).
    pub const fn version(self) -> u64 {
        match self {
            Arch::Sm90 => 0,
            Arch::Sm100 => 1,
        }
    }
}

display_by_name!(Arch);

/// The swizzle a descriptor (and the tensor map that wrote the tile) applies: the descriptor's layout field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemLayout {
    /// No swizzle: 8-row x 16-byte core matrices ("interleave").
    None,
    /// 128-byte rows swizzled in 32-byte atoms (sm_100 only, MN-major only): `Sw<2,5,2>` on bytes;
    /// TMA's `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B`.
    Sw128Atom32,
    /// 128-byte rows, 16-byte atoms: `Sw<3,4,3>` on bytes.
    Sw128,
    /// 64-byte rows: `Sw<2,4,3>` on bytes.
    Sw64,
    /// 32-byte rows: `Sw<1,4,3>` on bytes.
    Sw32,
}

impl SmemLayout {
    /// Every layout, in the order of their sm_100 codes.
    pub const ALL: [SmemLayout; 5] = [
        SmemLayout::None,
        SmemLayout::Sw128Atom32,
        SmemLayout::Sw128,
        SmemLayout::Sw64,
        SmemLayout::Sw32,
    ];

    /// The 3-bit sm_100 code (bits 61-63); an sm_90 descriptor holds `code >> 1` in bits 62-63.
    pub const fn code(self) -> u64 {
        match self {
            SmemLayout::None => 0,
            SmemLayout::Sw128Atom32 => 1,
            SmemLayout::Sw128 => 2,
            SmemLayout::Sw64 => 4,
            SmemLayout::Sw32 => 6,
        }
    }

    /// The layout of a 3-bit code (`None` for 3, 5, 7).
    pub const fn from_code(code: u64) -> Option<SmemLayout> {
        match code {
            0 => Some(SmemLayout::None),
            1 => Some(SmemLayout::Sw128Atom32),
            2 => Some(SmemLayout::Sw128),
            4 => Some(SmemLayout::Sw64),
            6 => Some(SmemLayout::Sw32),
            _ => None,
        }
    }

    /// The layout a TMA byte mode writes.
    pub const fn of_mode(mode: ByteMode) -> SmemLayout {
        match mode {
            ByteMode::None => SmemLayout::None,
            ByteMode::Sw32 => SmemLayout::Sw32,
            ByteMode::Sw64 => SmemLayout::Sw64,
            ByteMode::Sw128 => SmemLayout::Sw128,
        }
    }

    /// The byte mode of this layout (`None` for [`SmemLayout::Sw128Atom32`], which no [`ByteMode`] names).
    pub const fn byte_mode(self) -> Option<ByteMode> {
        match self {
            SmemLayout::None => Some(ByteMode::None),
            SmemLayout::Sw32 => Some(ByteMode::Sw32),
            SmemLayout::Sw64 => Some(ByteMode::Sw64),
            SmemLayout::Sw128 => Some(ByteMode::Sw128),
            SmemLayout::Sw128Atom32 => None,
        }
    }

    /// The swizzle on byte addresses.
    pub const fn byte_swizzle(self) -> Swizzle {
        match self {
            SmemLayout::Sw128Atom32 => Swizzle::new(2, 5, 2),
            m => match m.byte_mode() {
                Some(b) => b.swizzle(),
                None => Swizzle::IDENTITY,
            },
        }
    }

    /// Bytes of a swizzled row (16 for `None`: one core-matrix row).
    pub const fn row_bytes(self) -> u32 {
        match self {
            SmemLayout::None => CHUNK_BYTES,
            SmemLayout::Sw32 => 32,
            SmemLayout::Sw64 => 64,
            SmemLayout::Sw128 | SmemLayout::Sw128Atom32 => 128,
        }
    }

    /// Bytes after which the swizzle pattern repeats: where a tile must start for base offset 0 (16 for `None`).
    pub const fn period(self) -> u32 {
        match self {
            SmemLayout::None => CHUNK_BYTES,
            s => s.byte_swizzle().period() as u32,
        }
    }

    /// In words: `no swizzle`, `128-byte swizzle`, `128-byte swizzle with 32-byte atoms`, ...
    pub const fn words(self) -> &'static str {
        match self {
            SmemLayout::None => "no swizzle (interleaved 8x16-byte core matrices)",
            SmemLayout::Sw128Atom32 => "128-byte swizzle with 32-byte atoms",
            SmemLayout::Sw128 => "128-byte swizzle",
            SmemLayout::Sw64 => "64-byte swizzle",
            SmemLayout::Sw32 => "32-byte swizzle",
        }
    }

    /// Short name: `NONE`, `SW128A32`, `SW128`, `SW64`, `SW32`.
    pub const fn name(self) -> &'static str {
        match self {
            SmemLayout::None => "NONE",
            SmemLayout::Sw128Atom32 => "SW128A32",
            SmemLayout::Sw128 => "SW128",
            SmemLayout::Sw64 => "SW64",
            SmemLayout::Sw32 => "SW32",
        }
    }
}

display_by_name!(SmemLayout);

/// A decoded (or to-be-encoded) descriptor; offsets and the start address in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Descriptor {
    /// Which instruction reads it.
    pub arch: Arch,
    /// Shared-memory byte address of the matrix (its low 18 bits are encoded).
    pub start: u32,
    /// Leading dimension byte offset.
    pub lbo: u32,
    /// Stride dimension byte offset.
    pub sbo: u32,
    /// Bits 49-51.
    pub base_offset: u32,
    /// Bit 52 (sm_100): LBO is an absolute address.
    pub lbo_absolute: bool,
    /// The swizzle.
    pub layout: SmemLayout,
}

/// An operand tile with the layout TMA writes and the descriptor reads: an [`OperandTile`]'s byte mode, or
/// sm_100's 128-byte swizzle with 32-byte atoms (MN-major), which keeps the 128-byte placement (the same boxes,
/// K steps and MN offsets) and groups K rows by 4 (SBO = 512 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The tile (its mode `SW128` for the 32-byte-atom layout).
    pub tile: OperandTile,
    /// The layout.
    pub layout: SmemLayout,
}

impl Operand {
    /// The tile with its own byte mode's layout.
    pub const fn of(tile: OperandTile) -> Operand {
        Operand {
            tile,
            layout: SmemLayout::of_mode(tile.mode),
        }
    }

    /// An MN-major tile written with `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B`.
    pub const fn atom32(elem: crate::Elem, mn: u32, k: u32) -> Operand {
        Operand {
            tile: OperandTile::new(ByteMode::Sw128, elem, Major::MN, mn, k),
            layout: SmemLayout::Sw128Atom32,
        }
    }

    /// Whether `arch`'s MMA reads it.
    pub const fn validate(&self, arch: Arch) -> Result<(), crate::wgmma::OperandError> {
        if let Err(e) = validate_for(&self.tile, arch) {
            return Err(e);
        }
        let atom32 = matches!(self.layout, SmemLayout::Sw128Atom32);
        if atom32 && (matches!(arch, Arch::Sm90) || matches!(self.tile.major, Major::K)) {
            return Err(crate::wgmma::OperandError::Atom32Layout);
        }
        if !atom32 && self.layout as u32 != SmemLayout::of_mode(self.tile.mode) as u32 {
            return Err(crate::wgmma::OperandError::Mismatch("layout"));
        }
        Ok(())
    }

    /// (LBO, SBO) in bytes.
    pub const fn strides(&self) -> (u32, u32) {
        let p = self.tile.params();
        match self.layout {
            SmemLayout::Sw128Atom32 => (p.lbo, 4 * self.layout.row_bytes()),
            _ => (p.lbo, p.sbo),
        }
    }

    /// Which strides an instruction reading `slice_mn` MN elements takes ([`strides_used`]); with 32-byte
    /// atoms 32 bytes of K are at least two 4-row groups.
    pub const fn strides_used(&self, slice_mn: u32) -> (bool, bool) {
        match self.layout {
            SmemLayout::Sw128Atom32 => (slice_mn > self.tile.row_elems(), true),
            _ => strides_used(&self.tile, slice_mn),
        }
    }

    /// The descriptor of an instruction reading `slice_mn` of its MN elements at `start` (unused strides 0).
    pub const fn descriptor(&self, arch: Arch, slice_mn: u32, start: u32) -> Descriptor {
        let (lbo, sbo) = self.strides();
        let (lu, su) = self.strides_used(slice_mn);
        let k_swizzled =
            matches!(self.tile.major, Major::K) && !matches!(self.layout, SmemLayout::None);
        Descriptor::new(
            arch,
            start,
            if lu || k_swizzled { lbo } else { 0 },
            if su { sbo } else { 0 },
            self.layout,
        )
    }
}

/// Why 64 bits are not a descriptor of the architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BitsError {
    /// Bits that must be zero are set: which.
    Reserved(&'static str),
    /// sm_100: bits 46-48 are not `0b001` (the value they hold).
    Version(u64),
    /// sm_100: layout code 3, 5 or 7.
    LayoutCode(u64),
}

impl fmt::Display for BitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BitsError::Reserved(b) => write!(f, "{b} are reserved and must be 0"),
            BitsError::Version(0) => f.write_str(
                "bits 46-48 (version) are 0: a Hopper wgmma descriptor; tcgen05 needs 0b001 there",
            ),
            BitsError::Version(v) => write!(f, "bits 46-48 (version) are {v:#05b}; tcgen05 needs 0b001"),
            BitsError::LayoutCode(c) => write!(
                f,
                "layout type {c} (bits 61-63) is invalid: 0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B"
            ),
        }
    }
}

impl core::error::Error for BitsError {}

/// PTX's `matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4`.
const fn enc(x: u32) -> u64 {
    ((x & 0x3FFFF) >> 4) as u64
}

/// Field `[lo, lo + width)` of `bits`.
pub const fn field(bits: u64, lo: u32, width: u32) -> u64 {
    (bits >> lo) & ((1u64 << width) - 1)
}

impl Descriptor {
    /// A descriptor with base offset 0 and LBO as a byte offset.
    pub const fn new(arch: Arch, start: u32, lbo: u32, sbo: u32, layout: SmemLayout) -> Descriptor {
        Descriptor {
            arch,
            start,
            lbo,
            sbo,
            base_offset: 0,
            lbo_absolute: false,
            layout,
        }
    }

    /// The descriptor of `tile` for `arch` with start address `start` (the tile's, plus a K step's or an MN
    /// slice's offset): the layout, LBO and SBO the tile's spec derives ([`OperandTile::params`]), base offset 0.
    pub const fn of_tile(arch: Arch, tile: &OperandTile, start: u32) -> Descriptor {
        Descriptor::of_slice(arch, tile, tile.mn, start)
    }

    /// The descriptor of one instruction's operand: `slice_mn` MN elements of `tile` (64 rows of A for `wgmma`,
    /// all of B) by 32 bytes of K, at `start`. A stride the operand never takes (one 8-row group along MN, one
    /// swizzle atom, one 8-row K group for 4-byte types) is encoded 0, as CuTe does.
    pub const fn of_slice(arch: Arch, tile: &OperandTile, slice_mn: u32, start: u32) -> Descriptor {
        Operand::of(*tile).descriptor(arch, slice_mn, start)
    }

    /// The 64 bits. Hopper and Blackwell share every field but the version (sm_100) and the LBO mode (sm_100).
    pub const fn encode(&self) -> u64 {
        enc(self.start)
            | (enc(self.lbo) << 16)
            | (enc(self.sbo) << 32)
            | (self.arch.version() << 46)
            | (((self.base_offset & 7) as u64) << 49)
            | ((self.lbo_absolute as u64) << 52)
            | (self.layout.code() << 61)
    }

    /// Every way `bits` fails to be a descriptor of `arch`, from index `from` on: `Err((index, why))` for the
    /// first. (One list of rules for the `const` [`Descriptor::decode`] and for the std list of all of them.)
    pub const fn bits_problem(bits: u64, arch: Arch, from: u32) -> Result<(), (u32, BitsError)> {
        let r = BitsError::Reserved;
        let mut i = from;
        while i < 7 {
            let e = match (i, arch) {
                (0, _) if field(bits, 14, 2) != 0 => Some(r("bits 14-15")),
                (1, _) if field(bits, 30, 2) != 0 => Some(r("bits 30-31")),
                (2, Arch::Sm90) if field(bits, 46, 3) != 0 => Some(r("bits 46-48")),
                (2, Arch::Sm100) if field(bits, 46, 3) != 1 => {
                    Some(BitsError::Version(field(bits, 46, 3)))
                }
                (3, Arch::Sm90) if field(bits, 52, 10) != 0 => Some(r("bits 52-61")),
                (3, Arch::Sm100) if field(bits, 53, 8) != 0 => Some(r("bits 53-60")),
                (4, Arch::Sm100) if SmemLayout::from_code(field(bits, 61, 3)).is_none() => {
                    Some(BitsError::LayoutCode(field(bits, 61, 3)))
                }
                _ => None,
            };
            if let Some(e) = e {
                return Err((i, e));
            }
            i += 1;
        }
        Ok(())
    }

    /// The fields of `bits` as `arch` reads them, whatever the reserved bits hold (an invalid sm_100 layout
    /// code reads as `None`: check with [`Descriptor::bits_problem`] first).
    pub const fn fields(bits: u64, arch: Arch) -> Descriptor {
        let code = match arch {
            Arch::Sm90 => field(bits, 62, 2) << 1,
            Arch::Sm100 => field(bits, 61, 3),
        };
        Descriptor {
            arch,
            start: (field(bits, 0, 14) << 4) as u32,
            lbo: (field(bits, 16, 14) << 4) as u32,
            sbo: (field(bits, 32, 14) << 4) as u32,
            base_offset: field(bits, 49, 3) as u32,
            lbo_absolute: match arch {
                Arch::Sm90 => false,
                Arch::Sm100 => field(bits, 52, 1) == 1,
            },
            layout: match SmemLayout::from_code(code) {
                Some(l) => l,
                None => SmemLayout::None,
            },
        }
    }

    /// Decode 64 bits, refusing reserved bits, a missing sm_100 version and invalid layout codes.
    pub const fn decode(bits: u64, arch: Arch) -> Result<Descriptor, BitsError> {
        match Descriptor::bits_problem(bits, arch, 0) {
            Err((_, e)) => Err(e),
            Ok(()) => Ok(Descriptor::fields(bits, arch)),
        }
    }

    /// The base offset the start address needs: the 128-byte row of the swizzle pattern it falls on
    /// (`(start >> 7) & 7` within the pattern's period; 0 without a swizzle or on the period).
    pub const fn needed_base_offset(&self) -> u32 {
        let p = self.layout.period();
        if p <= 128 {
            0
        } else {
            (self.start % p) >> 7
        }
    }

    /// The first way this descriptor disagrees with `tile` read `slice_mn` MN elements at a time (the
    /// instruction's MN: 64 rows of A for `wgmma`), from check index `from` on (see [`Descriptor::check`]).
    pub const fn mismatch(
        &self,
        tile: &OperandTile,
        slice_mn: u32,
        from: u32,
    ) -> Result<(), (u32, DescMismatch)> {
        self.mismatch_operand(&Operand::of(*tile), slice_mn, from)
    }

    /// [`Descriptor::mismatch`] for an [`Operand`] (any layout, the 32-byte atoms included).
    pub const fn mismatch_operand(
        &self,
        op: &Operand,
        slice_mn: u32,
        from: u32,
    ) -> Result<(), (u32, DescMismatch)> {
        if let Err(e) = op.validate(self.arch) {
            return Err((0, DescMismatch::Spec(e)));
        }
        let tile = &op.tile;
        let (want_lbo, want_sbo) = op.strides();
        let want_layout = op.layout;
        let layout_ok = self.layout as u32 == want_layout as u32;
        // Strides the instruction never takes are not compared (CuTe encodes 0 there).
        let (lbo_used, sbo_used) = op.strides_used(slice_mn);
        let other = Operand::of(OperandTile {
            major: match tile.major {
                Major::K => Major::MN,
                Major::MN => Major::K,
            },
            ..*tile
        });
        let other_major = layout_ok
            && other.validate(self.arch).is_ok()
            && ((sbo_used && self.sbo != want_sbo) || (lbo_used && self.lbo != want_lbo))
            && self.sbo == other.strides().1
            && self.lbo == other.strides().0;
        let mut i = from;
        while i < 8 {
            let e = match i {
                1 if !layout_ok => Some(DescMismatch::Layout {
                    desc: self.layout,
                    spec: want_layout,
                }),
                // The other major's strides, when this tile's are not matched: the operand's major-ness (and
                // then the two stride lines below would only repeat it).
                2 if other_major => Some(DescMismatch::Major { spec: tile.major }),
                3 if layout_ok && !other_major && lbo_used && self.lbo != want_lbo => {
                    Some(stride_mismatch(StrideField::Lbo, self.lbo, want_lbo, tile))
                }
                4 if layout_ok && !other_major && sbo_used && self.sbo != want_sbo => {
                    Some(stride_mismatch(StrideField::Sbo, self.sbo, want_sbo, tile))
                }
                5 if !self.start.is_multiple_of(16) => {
                    Some(DescMismatch::StartUnaligned { start: self.start })
                }
                6 if self.base_offset != self.needed_base_offset() => Some(DescMismatch::Phase {
                    start: self.start,
                    period: self.layout.period(),
                    base_offset: self.base_offset,
                    needed: self.needed_base_offset(),
                }),
                7 if self.lbo_absolute => Some(DescMismatch::LboAbsolute),
                _ => None,
            };
            if let Some(e) = e {
                return Err((i, e));
            }
            i += 1;
        }
        Ok(())
    }

    /// `Ok` when this descriptor reads `tile` as TMA wrote it; otherwise the first disagreement. `const`, so a
    /// Rust kernel can fail its build on a wrong descriptor:
    ///
    /// ```
    /// use swizzle_core::descriptor::{Arch, Descriptor};
    /// use swizzle_core::wgmma::{Major, OperandTile};
    /// use swizzle_core::{ByteMode, Elem};
    /// const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// const D: u64 = 0x4000_0040_0001_0040; // what the kernel builds (start 0x400)
    /// swizzle_core::assert_descriptor!(D, Arch::Sm90, A);
    /// ```
    ///
    /// ```compile_fail,E0080
    /// # use swizzle_core::descriptor::{Arch, Descriptor};
    /// # use swizzle_core::wgmma::{Major, OperandTile};
    /// # use swizzle_core::{ByteMode, Elem};
    /// # const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
    /// // SBO written in bytes (1024) instead of 16-byte units (64).
    /// const D: u64 = 0x4000_0400_0001_0040;
    /// swizzle_core::assert_descriptor!(D, Arch::Sm90, A);
    /// ```
    pub const fn check(&self, tile: &OperandTile) -> Result<(), DescMismatch> {
        self.check_slice(tile, tile.mn)
    }

    /// [`Descriptor::check`] for an instruction reading `slice_mn` of the tile's MN elements (64 rows of A).
    pub const fn check_slice(&self, tile: &OperandTile, slice_mn: u32) -> Result<(), DescMismatch> {
        match self.mismatch(tile, slice_mn, 0) {
            Ok(()) => Ok(()),
            Err((_, e)) => Err(e),
        }
    }

    /// Every disagreement with `tile`, in check order.
    #[cfg(feature = "std")]
    pub fn mismatches(&self, tile: &OperandTile) -> Vec<DescMismatch> {
        self.mismatches_slice(tile, tile.mn)
    }

    /// Every disagreement with `tile` read `slice_mn` MN elements at a time, in check order.
    #[cfg(feature = "std")]
    pub fn mismatches_slice(&self, tile: &OperandTile, slice_mn: u32) -> Vec<DescMismatch> {
        self.mismatches_operand(&Operand::of(*tile), slice_mn)
    }

    /// Every disagreement with an [`Operand`] read `slice_mn` MN elements at a time, in check order.
    #[cfg(feature = "std")]
    pub fn mismatches_operand(&self, op: &Operand, slice_mn: u32) -> Vec<DescMismatch> {
        let mut v = Vec::new();
        let mut from = 0;
        while let Err((i, e)) = self.mismatch_operand(op, slice_mn, from) {
            v.push(e);
            if matches!(e, DescMismatch::Spec(_)) {
                break;
            }
            from = i + 1;
        }
        v
    }
}

/// Whether an instruction reading `slice_mn` MN elements of `tile` by 32 bytes of K steps along (LBO, SBO):
/// the canonical layouts' strides, each used only when the operand has more than one of what it steps over.
/// Swizzled K-major LBO is never used (CuTe encodes 16 bytes there).
pub const fn strides_used(tile: &OperandTile, slice_mn: u32) -> (bool, bool) {
    let kstep = crate::wgmma::K_STEP_BYTES / tile.elem.bytes(); // K elements of one instruction
    let chunk = CHUNK_BYTES / tile.elem.bytes(); // elements of one 16-byte chunk
    match (tile.major, tile.mode) {
        // LBO: K chunk to K chunk (two per instruction); SBO: 8-row group to group.
        (Major::K, ByteMode::None) => (true, slice_mn > CORE_ROWS),
        (Major::K, _) => (false, slice_mn > CORE_ROWS),
        // LBO: 8-row K group to group; SBO: MN chunk to chunk.
        (Major::MN, ByteMode::None) => (kstep > CORE_ROWS, slice_mn > chunk),
        // LBO: swizzle atom to atom along MN; SBO: 8-row K group to group.
        (Major::MN, _) => (slice_mn > tile.row_elems(), kstep > CORE_ROWS),
    }
}

/// Whether `tile` is an operand `arch`'s MMA reads: `wgmma` transposes only 16-bit types, `tcgen05.mma` any
/// width of this crate's element types.
pub const fn validate_for(
    tile: &OperandTile,
    arch: Arch,
) -> Result<(), crate::wgmma::OperandError> {
    match arch {
        Arch::Sm90 => tile.validate(),
        Arch::Sm100 => tile.validate_layout(),
    }
}

/// Decode `bits` as a descriptor of `arch` and check it against `tile`, for `const` assertions: the message of
/// the first problem, or `None`.
pub const fn check_bits(bits: u64, arch: Arch, tile: &OperandTile) -> Option<&'static str> {
    match Descriptor::decode(bits, arch) {
        Err(BitsError::Reserved(_)) => Some("reserved descriptor bits are set"),
        Err(BitsError::Version(_)) => Some("the version bits (46-48) are not the architecture's"),
        Err(BitsError::LayoutCode(_)) => Some("the layout type is not a valid code"),
        Ok(d) => match d.check(tile) {
            Ok(()) => None,
            Err(e) => Some(e.message()),
        },
    }
}

/// Fails the build unless descriptor bits `desc` of architecture `arch` read operand tile `tile` as TMA wrote
/// it ([`Descriptor::check`]); the error names the first problem.
#[macro_export]
macro_rules! assert_descriptor {
    ($desc:expr, $arch:expr, $tile:expr) => {
        const _: () = {
            if let ::core::option::Option::Some(why) =
                $crate::descriptor::check_bits($desc, $arch, &$tile)
            {
                ::core::panic!("{}", why);
            }
        };
    };
}

/// LBO or SBO.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrideField {
    /// Leading dimension byte offset (bits 16-29).
    Lbo,
    /// Stride dimension byte offset (bits 32-45).
    Sbo,
}

impl StrideField {
    /// `LBO` or `SBO`.
    pub const fn name(self) -> &'static str {
        match self {
            StrideField::Lbo => "LBO",
            StrideField::Sbo => "SBO",
        }
    }
}

/// How a descriptor disagrees with the operand tile it should read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DescMismatch {
    /// The tile itself is not a legal operand.
    Spec(crate::wgmma::OperandError),
    /// The descriptor's swizzle is not the one TMA wrote (mode).
    Layout {
        /// In the descriptor.
        desc: SmemLayout,
        /// The tile's.
        spec: SmemLayout,
    },
    /// LBO and SBO are the other major's: the operand is read transposed.
    Major {
        /// The tile's major.
        spec: Major,
    },
    /// The field holds the byte count itself, not the count in 16-byte units (units).
    Units {
        /// Which.
        field: StrideField,
        /// Decoded bytes (16 times the intended).
        got: u32,
        /// The tile's.
        want: u32,
    },
    /// A stride that is not the layout's.
    Stride {
        /// Which.
        field: StrideField,
        /// Decoded bytes.
        got: u32,
        /// The tile's.
        want: u32,
        /// What the stride steps over in this tile.
        what: &'static str,
    },
    /// The start address is not 16-byte aligned.
    StartUnaligned {
        /// Bytes.
        start: u32,
    },
    /// The start address is not on the swizzle pattern's period and the base offset does not say where it is
    /// (alignment).
    Phase {
        /// Bytes.
        start: u32,
        /// The pattern's period, bytes.
        period: u32,
        /// In the descriptor.
        base_offset: u32,
        /// What the start address needs.
        needed: u32,
    },
    /// LBO mode 1 (absolute address): only sm_103a has it; the tile's LBO is an offset.
    LboAbsolute,
}

/// What a stride steps over in `tile`'s layout (for the message).
const fn stride_role(field: StrideField, tile: &OperandTile) -> &'static str {
    match (field, tile.major, tile.mode) {
        (StrideField::Lbo, Major::K, ByteMode::None) => {
            "the step between 16-byte K chunks (one TMA box of MN rows apart), from the layout, not the K extent"
        }
        (StrideField::Sbo, Major::K, _) => "the step between 8-row core-matrix groups along MN",
        (StrideField::Lbo, Major::MN, ByteMode::None) => "the step between 8-row K groups",
        (StrideField::Sbo, Major::MN, ByteMode::None) => {
            "the step between 16-byte MN chunks (one TMA box of K rows apart), from the layout, not the MN extent"
        }
        (StrideField::Lbo, Major::MN, _) => {
            "the step between swizzle atoms along MN (one TMA box of K rows apart), from the layout, not the extent"
        }
        (StrideField::Sbo, Major::MN, _) => {
            "the step between K groups (8 swizzled rows; 4 with 32-byte atoms)"
        }
        (StrideField::Lbo, Major::K, _) => "unused for swizzled K-major",
    }
}

const fn stride_mismatch(
    field: StrideField,
    got: u32,
    want: u32,
    tile: &OperandTile,
) -> DescMismatch {
    if got == (want & 0x3FFF) << 4 && got != want {
        DescMismatch::Units { field, got, want }
    } else {
        DescMismatch::Stride {
            field,
            got,
            want,
            what: stride_role(field, tile),
        }
    }
}

impl DescMismatch {
    /// The class of the problem, as a short `const` message (the `Display` line adds the numbers).
    pub const fn message(&self) -> &'static str {
        match self {
            DescMismatch::Spec(e) => e.message(),
            DescMismatch::Layout { .. } => "mode: the descriptor's swizzle is not the one the tile was written with",
            DescMismatch::Major { .. } => "major-ness: LBO/SBO describe the other major",
            DescMismatch::Units { .. } => "units: LBO/SBO written in bytes instead of 16-byte units",
            DescMismatch::Stride { .. } => "stride: LBO/SBO is not the tile layout's",
            DescMismatch::StartUnaligned { .. } => "alignment: the start address is not 16-byte aligned",
            DescMismatch::Phase { .. } => {
                "alignment: the start address is off the swizzle pattern's period and the base offset does not say so"
            }
            DescMismatch::LboAbsolute => "LBO mode: absolute-address LBO (bit 52) exists only on sm_103a",
        }
    }
}

impl fmt::Display for DescMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DescMismatch::Spec(e) => write!(f, "operand: {e}"),
            DescMismatch::Layout { desc, spec } => write!(
                f,
                "mode: the descriptor says {} ({}), the tile was written with {} ({})",
                desc.words(),
                desc.name(),
                spec.words(),
                spec.name()
            ),
            DescMismatch::Major { spec } => write!(
                f,
                "major-ness: LBO/SBO are the {}-major layout's, the operand is {}-major (check the transpose bit too)",
                match spec {
                    Major::K => "MN",
                    Major::MN => "K",
                },
                spec.name()
            ),
            DescMismatch::Units { field, got, want } => write!(
                f,
                "units: {0} reads as {got} B, 16 times the tile's {want} B: the field holds the byte count; \
                 write {want} >> 4 = {1}",
                field.name(),
                want >> 4
            ),
            DescMismatch::Stride {
                field,
                got,
                want,
                what,
            } => write!(
                f,
                "stride: {} is {got} B, the tile's is {want} B ({what})",
                field.name()
            ),
            DescMismatch::StartUnaligned { start } => {
                write!(f, "alignment: start address {start:#x} is not 16-byte aligned")
            }
            DescMismatch::Phase {
                start,
                period,
                base_offset,
                needed,
            } => write!(
                f,
                "alignment: start address {start:#x} is {} B past a {period}-byte boundary (row {needed} of the \
                 swizzle pattern) with base offset {base_offset}: the hardware swizzles absolute addresses, so \
                 start the tile on a {period}-byte boundary (or set base offset {needed})",
                start % period
            ),
            DescMismatch::LboAbsolute => f.write_str(
                "LBO mode: bit 52 says LBO is an absolute address (sm_103a only); the tile's LBO is an offset",
            ),
        }
    }
}

impl core::error::Error for DescMismatch {}

/// Where element (mn, k) of one instruction's operand slice lands, read through descriptor `d` the way the
/// hardware does (the PTX canonical layouts, swizzle on absolute address bits): a byte address. `major` and
/// `elem_bytes` say how to read it (a descriptor does not hold them). `k` is below 32 bytes' worth of elements.
pub const fn element_address(
    d: &Descriptor,
    major: Major,
    elem_bytes: u32,
    mn: u32,
    k: u32,
) -> u32 {
    let eb = elem_bytes;
    let t = CHUNK_BYTES / eb; // elements per 16-byte chunk
    let rb = d.layout.row_bytes();
    let s = rb / CHUNK_BYTES;
    let plain = match (major, d.layout) {
        // ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
        (Major::K, SmemLayout::None) => {
            (mn % CORE_ROWS) * CHUNK_BYTES
                + (mn / CORE_ROWS) * d.sbo
                + (k % t) * eb
                + (k / t) * d.lbo
        }
        // ((8,m),(T,2k)) : ((S*T,SBO),(1,T))
        (Major::K, _) => (mn % CORE_ROWS) * rb + (mn / CORE_ROWS) * d.sbo + k * eb,
        // ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
        (Major::MN, SmemLayout::None) => {
            (mn % t) * eb
                + (mn / t) * d.sbo
                + (k % CORE_ROWS) * CHUNK_BYTES
                + (k / CORE_ROWS) * d.lbo
        }
        // 32-byte atoms: k groups of 4 rows.
        (Major::MN, SmemLayout::Sw128Atom32) => {
            (mn % (t * s)) * eb + (mn / (t * s)) * d.lbo + (k % 4) * rb + (k / 4) * d.sbo
        }
        // ((T,S,m),(8,k)) : ((1,T,LBO),(S*T,SBO))
        (Major::MN, _) => {
            (mn % (t * s)) * eb
                + (mn / (t * s)) * d.lbo
                + (k % CORE_ROWS) * rb
                + (k / CORE_ROWS) * d.sbo
        }
    };
    d.layout.byte_swizzle().apply(d.start + plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Elem;

    #[test]
    fn hopper_bits_are_blackwell_bits_without_version() {
        for layout in [
            SmemLayout::None,
            SmemLayout::Sw128,
            SmemLayout::Sw64,
            SmemLayout::Sw32,
        ] {
            let d = Descriptor::new(Arch::Sm90, 0x1230, 0x40, 0x400, layout);
            let b = Descriptor {
                arch: Arch::Sm100,
                ..d
            };
            assert_eq!(d.encode() | (1 << 46), b.encode());
            assert_eq!(Descriptor::decode(d.encode(), Arch::Sm90), Ok(d));
            assert_eq!(Descriptor::decode(b.encode(), Arch::Sm100), Ok(b));
            // The legacy wgmma encoder agrees.
            let mode = layout.byte_mode().unwrap();
            assert_eq!(
                crate::wgmma::encode_descriptor(
                    0x1230,
                    0x40,
                    0x400,
                    0,
                    crate::wgmma::layout_type(mode)
                ),
                d.encode()
            );
        }
    }

    #[test]
    fn decode_refuses_bad_bits() {
        let good = Descriptor::new(Arch::Sm100, 0x400, 16, 1024, SmemLayout::Sw128).encode();
        assert_eq!(
            Descriptor::decode(good & !(1 << 46), Arch::Sm100),
            Err(BitsError::Version(0))
        );
        assert_eq!(
            Descriptor::decode(good | (1 << 14), Arch::Sm100),
            Err(BitsError::Reserved("bits 14-15"))
        );
        assert_eq!(
            Descriptor::decode((good & !(7 << 61)) | (3 << 61), Arch::Sm100),
            Err(BitsError::LayoutCode(3))
        );
        assert_eq!(
            Descriptor::decode(good, Arch::Sm90),
            Err(BitsError::Reserved("bits 46-48"))
        );
        let sw32a = Descriptor::new(Arch::Sm100, 0, 16, 512, SmemLayout::Sw128Atom32).encode();
        assert!(Descriptor::decode(sw32a & !(1 << 46), Arch::Sm90).is_err());
    }

    #[test]
    fn every_layout_round_trips() {
        for arch in [Arch::Sm90, Arch::Sm100] {
            for l in SmemLayout::ALL {
                if arch == Arch::Sm90 && l == SmemLayout::Sw128Atom32 {
                    continue;
                }
                for base in 0..8 {
                    let d = Descriptor {
                        base_offset: base,
                        ..Descriptor::new(arch, 0x3FFF0, 0x3FFF0, 16, l)
                    };
                    assert_eq!(
                        Descriptor::decode(d.encode(), arch),
                        Ok(d),
                        "{arch} {l} {base}"
                    );
                }
            }
        }
    }

    #[test]
    fn element_address_reads_what_tma_wrote() {
        for mode in ByteMode::ALL {
            for elem in [Elem::BF16, Elem::E4M3, Elem::TF32] {
                for major in [Major::K, Major::MN] {
                    let t = OperandTile::new(mode, elem, major, 64, 64);
                    if t.validate().is_err() {
                        continue;
                    }
                    let d = Descriptor::of_tile(Arch::Sm100, &t, 2048);
                    let kstep = 32 / elem.bytes();
                    for mn in 0..64 {
                        for k in 0..kstep {
                            assert_eq!(
                                element_address(&d, major, elem.bytes(), mn, k),
                                2048 + t.byte_of(mn, k),
                                "{t} ({mn},{k})"
                            );
                        }
                    }
                }
            }
        }
    }
}
