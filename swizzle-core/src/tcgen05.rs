//! Blackwell `tcgen05.mma`: the 32-bit instruction descriptor (kinds `f16`, `tf32`, `f8f6f4`), with the shape
//! rules of each CTA group and the accumulator's tensor-memory columns. The shared-memory operand descriptors are
//! [`crate::descriptor`]'s (one encoder with Hopper).
//!
//! ```text
//!   bit  31 30  29  28....24  23  22....17  16   15   14   13   12..10  9...7  6   5 4    3    2    1 0
//!        max     0   M >> 4    0   N >> 3   B    A    neg  neg  B type  A type  0  D type sat  sparse sparse
//!        shift                              MN-major   B    A                                        selector
//! ```
//!
//! PTX ISA table "Instruction descriptor format for .kind::tf32, .kind::f16, .kind::f8f6f4 and .kind::i8". The
//! kind is the instruction's, not the descriptor's: type code 0 is f16 under `kind::f16` and E4M3 under
//! `kind::f8f6f4`. `cta_group` is the instruction's too: M = 64 or 128 with one CTA (N a multiple of 8 up to 256),
//! M = 128 or 256 with a pair (N a multiple of 16).
//!
//! ```
//! use swizzle_core::tcgen05::{InstrDesc, MmaType};
//! use swizzle_core::wgmma::Major;
//! // bf16 x bf16 -> f32, 128x256, both K-major, one CTA.
//! let d = InstrDesc::new(MmaType::BF16, MmaType::BF16, true, 128, 256, Major::K, Major::K);
//! assert_eq!(d.encode(), 0x0840_0490);
//! assert_eq!(d.tmem_columns(), 256);
//! assert_eq!(InstrDesc::decode(0x0840_0490, d.kind(), 1), Ok(d));
//! ```

use crate::wgmma::Major;
use core::fmt;

/// The instruction's `.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `kind::f16`: f16 / bf16 inputs, K = 16.
    F16,
    /// `kind::tf32`: tf32 inputs, K = 8.
    Tf32,
    /// `kind::f8f6f4`: 8-, 6- and 4-bit float inputs, K = 32.
    F8f6f4,
}

impl Kind {
    /// `f16`, `tf32`, `f8f6f4`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::F16 => "f16",
            Kind::Tf32 => "tf32",
            Kind::F8f6f4 => "f8f6f4",
        }
    }

    /// Parse [`Kind::name`] (also with a `kind::` prefix).
    pub fn from_name(s: &str) -> Option<Kind> {
        match s.strip_prefix("kind::").unwrap_or(s) {
            "f16" => Some(Kind::F16),
            "tf32" => Some(Kind::Tf32),
            "f8f6f4" => Some(Kind::F8f6f4),
            _ => None,
        }
    }

    /// K of one instruction, in elements (32 bytes of 8-bit data).
    pub const fn k(self) -> u32 {
        match self {
            Kind::F16 => 16,
            Kind::Tf32 => 8,
            Kind::F8f6f4 => 32,
        }
    }
}

/// An A or B input type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaType {
    /// IEEE half (`kind::f16`, code 0).
    F16,
    /// bfloat16 (`kind::f16`, code 1).
    BF16,
    /// TensorFloat-32 (`kind::tf32`, code 2).
    TF32,
    /// FP8 E4M3 (`kind::f8f6f4`, code 0).
    E4M3,
    /// FP8 E5M2 (code 1).
    E5M2,
    /// FP6 E2M3 (code 3).
    E2M3,
    /// FP6 E3M2 (code 4).
    E3M2,
    /// FP4 E2M1 (code 5).
    E2M1,
}

impl MmaType {
    /// Every type.
    pub const ALL: [MmaType; 8] = [
        MmaType::F16,
        MmaType::BF16,
        MmaType::TF32,
        MmaType::E4M3,
        MmaType::E5M2,
        MmaType::E2M3,
        MmaType::E3M2,
        MmaType::E2M1,
    ];

    /// The kind that takes it.
    pub const fn kind(self) -> Kind {
        match self {
            MmaType::F16 | MmaType::BF16 => Kind::F16,
            MmaType::TF32 => Kind::Tf32,
            _ => Kind::F8f6f4,
        }
    }

    /// The 3-bit code in the descriptor.
    pub const fn code(self) -> u32 {
        match self {
            MmaType::F16 | MmaType::E4M3 => 0,
            MmaType::BF16 | MmaType::E5M2 => 1,
            MmaType::TF32 => 2,
            MmaType::E2M3 => 3,
            MmaType::E3M2 => 4,
            MmaType::E2M1 => 5,
        }
    }

    /// The type `code` names under `kind`.
    pub const fn from_code(kind: Kind, code: u32) -> Option<MmaType> {
        match (kind, code) {
            (Kind::F16, 0) => Some(MmaType::F16),
            (Kind::F16, 1) => Some(MmaType::BF16),
            (Kind::Tf32, 2) => Some(MmaType::TF32),
            (Kind::F8f6f4, 0) => Some(MmaType::E4M3),
            (Kind::F8f6f4, 1) => Some(MmaType::E5M2),
            (Kind::F8f6f4, 3) => Some(MmaType::E2M3),
            (Kind::F8f6f4, 4) => Some(MmaType::E3M2),
            (Kind::F8f6f4, 5) => Some(MmaType::E2M1),
            _ => None,
        }
    }

    /// Bits of one element.
    pub const fn bits(self) -> u32 {
        match self {
            MmaType::F16 | MmaType::BF16 => 16,
            MmaType::TF32 => 32,
            MmaType::E4M3 | MmaType::E5M2 => 8,
            MmaType::E2M3 | MmaType::E3M2 => 6,
            MmaType::E2M1 => 4,
        }
    }

    /// Lower-case name (`bf16`, `e4m3`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            MmaType::F16 => "f16",
            MmaType::BF16 => "bf16",
            MmaType::TF32 => "tf32",
            MmaType::E4M3 => "e4m3",
            MmaType::E5M2 => "e5m2",
            MmaType::E2M3 => "e2m3",
            MmaType::E3M2 => "e3m2",
            MmaType::E2M1 => "e2m1",
        }
    }

    /// Parse [`MmaType::name`].
    pub fn from_name(s: &str) -> Option<MmaType> {
        MmaType::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// A `tcgen05.mma` instruction descriptor (dense; no block scaling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstrDesc {
    /// A's type.
    pub a: MmaType,
    /// B's type.
    pub b: MmaType,
    /// Accumulate in f32 (`true`) or f16.
    pub d_f32: bool,
    /// Rows of D (of the whole CTA pair with `cta_group` 2).
    pub m: u32,
    /// Columns of D.
    pub n: u32,
    /// A's major (bit 15, "transpose A").
    pub a_major: Major,
    /// B's major (bit 16).
    pub b_major: Major,
    /// Negate A (bit 13).
    pub negate_a: bool,
    /// Negate B (bit 14).
    pub negate_b: bool,
    /// CTAs of the instruction's `cta_group` (1 or 2): not in the bits, the instruction's.
    pub cta_group: u32,
    /// Bits 30-31 (`.ws` only): 0 none, 1 = 8, 2 = 16, 3 = 32.
    pub max_shift: u32,
}

/// Why an instruction descriptor is not one `tcgen05.mma` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdescError {
    /// A reserved bit is set: which.
    Reserved(&'static str),
    /// Sparsity bits: this crate decodes dense descriptors.
    Sparse,
    /// Saturate is for `kind::i8` only.
    Saturate,
    /// A and B are of different kinds (f16 x e4m3).
    KindMix,
    /// A type code the kind does not define.
    TypeCode {
        /// `A` or `B`.
        operand: &'static str,
        /// The code.
        code: u32,
    },
    /// The D type is not allowed for the kind (tf32 accumulates in f32 only), or is code 2/3.
    DType(u32),
    /// M is not 64 / 128 (one CTA) or 128 / 256 (a pair).
    M {
        /// Rows.
        m: u32,
        /// The CTA group.
        cta_group: u32,
    },
    /// N out of range or not a multiple of 8 (one CTA) / 16 (a pair).
    N {
        /// Columns.
        n: u32,
        /// The CTA group.
        cta_group: u32,
    },
    /// `cta_group` other than 1 or 2.
    CtaGroup(u32),
    /// MN-major operands must be 8-, 16- or 32-bit (not fp6 / fp4).
    Transpose(&'static str),
}

impl IdescError {
    /// One-line reason, without numbers.
    pub const fn message(&self) -> &'static str {
        match self {
            IdescError::Reserved(_) => "reserved bits (6, 23, 29) are set",
            IdescError::Sparse => "sparsity bits are set (a dense descriptor was expected)",
            IdescError::Saturate => "saturate (bit 3) is only for kind::i8",
            IdescError::KindMix => "A and B types are of different kinds",
            IdescError::TypeCode { .. } => "a type code the kind does not define",
            IdescError::DType(_) => "the D (accumulator) type is not allowed for the kind",
            IdescError::M { .. } => "M must be 64 or 128 with cta_group::1, 128 or 256 with cta_group::2",
            IdescError::N { .. } => {
                "N must be 8..256 in steps of 8 with cta_group::1, 16..256 in steps of 16 with cta_group::2"
            }
            IdescError::CtaGroup(_) => "cta_group is 1 or 2",
            IdescError::Transpose(_) => "MN-major (transposed) operands must be 8-, 16- or 32-bit types",
        }
    }
}

impl fmt::Display for IdescError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IdescError::Reserved(b) => write!(f, "{b} is reserved and must be 0 (a field overlaps it)"),
            IdescError::TypeCode { operand, code } => {
                write!(f, "{operand} type code {code} is not defined for this kind")
            }
            IdescError::DType(c) => write!(
                f,
                "D type code {c} (bits 4-5): kind::f16 and kind::f8f6f4 accumulate in f16 (0) or f32 (1), kind::tf32 in f32"
            ),
            IdescError::M { m, cta_group } => write!(
                f,
                "M = {m} with cta_group::{cta_group}: {}",
                if cta_group == 2 {
                    "a CTA pair takes M = 128 or 256"
                } else {
                    "one CTA takes M = 64 or 128 (M = 256 needs cta_group::2)"
                }
            ),
            IdescError::N { n, cta_group } => write!(
                f,
                "N = {n} with cta_group::{cta_group}: N must be {} up to 256",
                if cta_group == 2 {
                    "a multiple of 16 from 16"
                } else {
                    "a multiple of 8 from 8"
                }
            ),
            IdescError::CtaGroup(g) => write!(f, "cta_group::{g}: only 1 and 2 exist"),
            IdescError::Transpose(op) => write!(
                f,
                "{op} is MN-major (transposed) but its type is 6- or 4-bit: only 8-, 16- and 32-bit operands transpose"
            ),
            e => f.write_str(e.message()),
        }
    }
}

impl core::error::Error for IdescError {}

const fn bits_of(x: u32, lo: u32, w: u32) -> u32 {
    (x >> lo) & ((1 << w) - 1)
}

const fn major_of(bit: u32) -> Major {
    if bit == 1 {
        Major::MN
    } else {
        Major::K
    }
}

impl InstrDesc {
    /// A dense descriptor without negation or shift, one CTA (`m` = 256 implies a pair).
    pub const fn new(
        a: MmaType,
        b: MmaType,
        d_f32: bool,
        m: u32,
        n: u32,
        a_major: Major,
        b_major: Major,
    ) -> InstrDesc {
        InstrDesc {
            a,
            b,
            d_f32,
            m,
            n,
            a_major,
            b_major,
            negate_a: false,
            negate_b: false,
            cta_group: if m == 256 { 2 } else { 1 },
            max_shift: 0,
        }
    }

    /// The instruction's kind (A's).
    pub const fn kind(&self) -> Kind {
        self.a.kind()
    }

    /// The rules, stated once.
    pub const fn validate(&self) -> Result<(), IdescError> {
        if self.a.kind() as u32 != self.b.kind() as u32 {
            return Err(IdescError::KindMix);
        }
        if matches!(self.kind(), Kind::Tf32) && !self.d_f32 {
            return Err(IdescError::DType(0));
        }
        let g = self.cta_group;
        let m_ok = match g {
            1 => self.m == 64 || self.m == 128,
            2 => self.m == 128 || self.m == 256,
            _ => return Err(IdescError::CtaGroup(g)),
        };
        if !m_ok {
            return Err(IdescError::M {
                m: self.m,
                cta_group: g,
            });
        }
        let step = if g == 2 { 16 } else { 8 };
        if self.n < step || self.n > 256 || !self.n.is_multiple_of(step) {
            return Err(IdescError::N {
                n: self.n,
                cta_group: g,
            });
        }
        if matches!(self.a_major, Major::MN) && self.a.bits() < 8 {
            return Err(IdescError::Transpose("A"));
        }
        if matches!(self.b_major, Major::MN) && self.b.bits() < 8 {
            return Err(IdescError::Transpose("B"));
        }
        Ok(())
    }

    /// The 32 bits.
    pub const fn encode(&self) -> u32 {
        ((self.d_f32 as u32) << 4)
            | (self.a.code() << 7)
            | (self.b.code() << 10)
            | ((self.negate_a as u32) << 13)
            | ((self.negate_b as u32) << 14)
            | (self.a_major.imm_trans() << 15)
            | (self.b_major.imm_trans() << 16)
            | (((self.n >> 3) & 0x3F) << 17)
            | (((self.m >> 4) & 0x1F) << 24)
            | ((self.max_shift & 3) << 30)
    }

    /// Decode under the instruction's `kind` and `cta_group`, refusing reserved bits and every rule of
    /// [`InstrDesc::validate`].
    pub const fn decode(bits: u32, kind: Kind, cta_group: u32) -> Result<InstrDesc, IdescError> {
        if bits_of(bits, 6, 1) != 0 {
            return Err(IdescError::Reserved("bit 6"));
        }
        if bits_of(bits, 23, 1) != 0 {
            return Err(IdescError::Reserved("bit 23"));
        }
        if bits_of(bits, 29, 1) != 0 {
            return Err(IdescError::Reserved("bit 29"));
        }
        if bits_of(bits, 0, 3) != 0 {
            return Err(IdescError::Sparse);
        }
        if bits_of(bits, 3, 1) != 0 {
            return Err(IdescError::Saturate);
        }
        let dt = bits_of(bits, 4, 2);
        if dt > 1 {
            return Err(IdescError::DType(dt));
        }
        let a = match MmaType::from_code(kind, bits_of(bits, 7, 3)) {
            Some(t) => t,
            None => {
                return Err(IdescError::TypeCode {
                    operand: "A",
                    code: bits_of(bits, 7, 3),
                })
            }
        };
        let b = match MmaType::from_code(kind, bits_of(bits, 10, 3)) {
            Some(t) => t,
            None => {
                return Err(IdescError::TypeCode {
                    operand: "B",
                    code: bits_of(bits, 10, 3),
                })
            }
        };
        let d = InstrDesc {
            a,
            b,
            d_f32: dt == 1,
            m: bits_of(bits, 24, 5) << 4,
            n: bits_of(bits, 17, 6) << 3,
            a_major: major_of(bits_of(bits, 15, 1)),
            b_major: major_of(bits_of(bits, 16, 1)),
            negate_a: bits_of(bits, 13, 1) == 1,
            negate_b: bits_of(bits, 14, 1) == 1,
            cta_group,
            max_shift: bits_of(bits, 30, 2),
        };
        match d.validate() {
            Ok(()) => Ok(d),
            Err(e) => Err(e),
        }
    }

    /// The kind a descriptor most likely belongs to, from A's type code: 2 is tf32, 3-5 are fp6 / fp4, and 0 / 1
    /// (f16 / bf16 or e4m3 / e5m2) are read as `kind::f16` (say `kind::f8f6f4` to read them as fp8).
    pub const fn guess_kind(bits: u32) -> Kind {
        match bits_of(bits, 7, 3) {
            2 => Kind::Tf32,
            0 | 1 => Kind::F16,
            _ => Kind::F8f6f4,
        }
    }

    /// The first field in which this descriptor differs from the one a kernel meant (`None`: the same): decode
    /// what the kernel built and compare it with the shape and types it intended.
    pub const fn first_difference(&self, meant: &InstrDesc) -> Option<&'static str> {
        if self.m != meant.m {
            Some("M (bits 24-28)")
        } else if self.n != meant.n {
            Some("N (bits 17-22)")
        } else if self.a as u32 != meant.a as u32 {
            Some("A type (bits 7-9)")
        } else if self.b as u32 != meant.b as u32 {
            Some("B type (bits 10-12)")
        } else if self.d_f32 != meant.d_f32 {
            Some("D type (bits 4-5)")
        } else if self.a_major as u32 != meant.a_major as u32 {
            Some("A major (bit 15)")
        } else if self.b_major as u32 != meant.b_major as u32 {
            Some("B major (bit 16)")
        } else if self.negate_a != meant.negate_a || self.negate_b != meant.negate_b {
            Some("negate (bits 13-14)")
        } else if self.max_shift != meant.max_shift {
            Some("max shift (bits 30-31)")
        } else if self.cta_group != meant.cta_group {
            Some("cta_group (the instruction's)")
        } else {
            None
        }
    }

    /// Tensor-memory columns the f32 / f16 accumulator occupies per CTA: N (one 32-bit column per output column;
    /// M = 64 uses half of the 128 lanes, a CTA pair holds M / 2 rows in each CTA's 128 lanes).
    pub const fn tmem_columns(&self) -> u32 {
        self.n
    }

    /// Columns `tcgen05.alloc` must give for the accumulator: a power of two, at least 32.
    pub const fn tmem_alloc_columns(&self) -> u32 {
        let c = self.tmem_columns().next_power_of_two();
        if c < 32 {
            32
        } else {
            c
        }
    }

    /// Rows of D in each CTA of the group.
    pub const fn rows_per_cta(&self) -> u32 {
        self.m / self.cta_group
    }
}

/// The sm_100 descriptor of one instruction's operand in an MN-major tile that TMA wrote with
/// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` (128-byte rows of MN, 32-byte atoms, `Sw<2,5,2>` on bytes; the layout no
/// [`crate::ByteMode`] names): `k` K rows, each MN atom of 128 bytes a box of `k * 128` bytes (LBO, 0 when the
/// slice is one atom wide), K rows in groups of 4 (SBO = 512). `slice_mn` elements of `elem_bytes` each, at
/// `start`. The tile's placement is the 128-byte MN-major one, so
/// [`OperandTile::k_step_bytes`](crate::wgmma::OperandTile::k_step_bytes) of a `SW128` tile gives the K steps.
pub const fn atom32_descriptor(
    elem_bytes: u32,
    k: u32,
    slice_mn: u32,
    start: u32,
) -> crate::descriptor::Descriptor {
    use crate::descriptor::{Arch, Operand};
    let elem = match elem_bytes {
        1 => crate::Elem::E4M3,
        2 => crate::Elem::F16,
        _ => crate::Elem::TF32,
    };
    // The tile's MN only sizes its boxes; the descriptor depends on K and the instruction's MN.
    Operand::atom32(elem, 128 / elem_bytes, k).descriptor(Arch::Sm100, slice_mn, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_descriptor_round_trips() {
        let mut n_ok = 0;
        for a in MmaType::ALL {
            for b in MmaType::ALL.into_iter().filter(|b| b.kind() == a.kind()) {
                for g in [1, 2] {
                    for m in [64, 128, 256] {
                        for n in (8..=256).step_by(8) {
                            for (am, bm) in [
                                (Major::K, Major::K),
                                (Major::MN, Major::K),
                                (Major::K, Major::MN),
                            ] {
                                for d_f32 in [true, false] {
                                    let d = InstrDesc {
                                        cta_group: g,
                                        ..InstrDesc::new(a, b, d_f32, m, n, am, bm)
                                    };
                                    if d.validate().is_ok() {
                                        n_ok += 1;
                                        assert_eq!(
                                            InstrDesc::decode(d.encode(), a.kind(), g),
                                            Ok(d)
                                        );
                                        assert_eq!(
                                            d.encode() & ((1 << 6) | (1 << 23) | (1 << 29)),
                                            0
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(n_ok > 10_000, "{n_ok}");
    }

    #[test]
    fn shape_rules() {
        let d = InstrDesc::new(
            MmaType::BF16,
            MmaType::BF16,
            true,
            128,
            256,
            Major::K,
            Major::K,
        );
        assert_eq!(d.validate(), Ok(()));
        assert_eq!(
            InstrDesc { m: 256, ..d }.validate(),
            Err(IdescError::M {
                m: 256,
                cta_group: 1
            })
        );
        assert_eq!(
            InstrDesc {
                m: 64,
                cta_group: 2,
                ..d
            }
            .validate(),
            Err(IdescError::M {
                m: 64,
                cta_group: 2
            })
        );
        assert_eq!(
            InstrDesc {
                n: 24,
                cta_group: 2,
                ..d
            }
            .validate(),
            Err(IdescError::N {
                n: 24,
                cta_group: 2
            })
        );
        assert_eq!(InstrDesc { n: 24, ..d }.validate(), Ok(()));
        assert_eq!(
            InstrDesc::new(
                MmaType::E2M1,
                MmaType::E4M3,
                true,
                128,
                64,
                Major::MN,
                Major::K
            )
            .validate(),
            Err(IdescError::Transpose("A"))
        );
        assert_eq!(
            InstrDesc {
                d_f32: false,
                ..InstrDesc::new(
                    MmaType::TF32,
                    MmaType::TF32,
                    true,
                    64,
                    8,
                    Major::K,
                    Major::K
                )
            }
            .validate(),
            Err(IdescError::DType(0))
        );
        // M written one bit low (at bit 23, as a field overlapping N's neighbour would): refused.
        assert_eq!(
            InstrDesc::decode(d.encode() | (1 << 23), Kind::F16, 1),
            Err(IdescError::Reserved("bit 23"))
        );
        assert_eq!(d.tmem_alloc_columns(), 256);
        assert_eq!(InstrDesc { n: 40, ..d }.tmem_alloc_columns(), 64);
    }
}
