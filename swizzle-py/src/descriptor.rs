//! The descriptors a kernel builds, decoded and checked against what it means: the shared-memory matrix
//! descriptor of `wgmma` (sm_90) and `tcgen05.mma` (sm_100), the tcgen05 instruction descriptor, and the
//! arguments of `cuTensorMapEncodeTiled` (`swizzle_core::descriptor`, `tcgen05`, `tma`, `operand`; what
//! `swz decode desc|idesc` and `swz check desc|tma|idesc` print and decide).
use crate::args::{self, err_in, int_text, uint, SwizzleError};
use crate::spec::PySwizzle;
use crate::wgmma::PyOperandTile;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use swizzle_core::descriptor::{element_address, Arch, Descriptor, Operand, SmemLayout};
use swizzle_core::operand::instr_text;
use swizzle_core::tcgen05::{InstrDesc, Kind};
use swizzle_core::tma::{TmaInterleave, TmaMap, TmaSwizzle};
use swizzle_core::wgmma::Major;

/// Bytes a descriptor's start, LBO and SBO fields can hold (PTX: `(x & 0x3FFFF) >> 4`).
const FIELD_RANGE: u32 = 1 << 18;
/// Values a `dims` / `strides` / `box_dim` list may have before it is refused unread (a map has 5 at most).
const MAX_LIST: usize = 64;
/// The most MN elements one instruction reads (M or N = 256).
const MAX_MMA_MN: u32 = 256;

/// A non-negative integer of at most `width` bits (`field` names it).
fn bits(field: &str, obj: &Bound<'_, PyAny>, width: u32) -> PyResult<u64> {
    let t = int_text(field, obj)?;
    match t.parse::<u64>() {
        Ok(v) if width == 64 || v >> width == 0 => Ok(v),
        _ => {
            let shown = if t.len() > 40 {
                format!("an integer of {} digits", t.len())
            } else {
                t
            };
            Err(SwizzleError::new_err(format!(
                "{field}: {shown} is not a {width}-bit value (0 .. 2**{width})"
            )))
        }
    }
}

fn arch(obj: &Bound<'_, PyAny>) -> PyResult<Arch> {
    let t = args::text("arch", obj)?;
    Arch::from_name(t.trim()).ok_or_else(|| {
        SwizzleError::new_err(format!(
            "arch: unknown architecture {t:?} (sm_90 or sm_100; also sm_90a, sm_100a, sm_103a, sm_110a)"
        ))
    })
}

fn layout(obj: &Bound<'_, PyAny>) -> PyResult<SmemLayout> {
    let t = args::text("layout", obj)?;
    TmaSwizzle::parse(&t)
        .and_then(TmaSwizzle::layout)
        .ok_or_else(|| {
            SwizzleError::new_err(format!(
                "layout: {t:?} is not a descriptor layout (NONE, SW32, SW64, SW128, SW128A32)"
            ))
        })
}

/// The operand a descriptor or a map should describe: an `OperandTile` or the spelling `MODE:ELEM:MAJOR:MNxK`
/// (`SW128A32` for sm_100's 32-byte atoms), refused unless `arch`'s MMA reads it.
fn operand(obj: &Bound<'_, PyAny>, arch: Arch) -> PyResult<Operand> {
    let (op, shown) = if let Ok(t) = obj.cast::<PyOperandTile>() {
        (Operand::of(t.get().0), t.get().0.to_string())
    } else if obj.is_instance_of::<PyString>() {
        let t = args::text("operand", obj)?;
        let op = swizzle_core::operand::parse_operand(&t).map_err(|e| err_in("operand", e))?;
        (op, t.trim().to_string())
    } else {
        return Err(PyTypeError::new_err(
            "operand must be an OperandTile or a spelling MODE:ELEM:MAJOR:MNxK (e.g. \"SW128:bf16:K:128x64\")",
        ));
    };
    op.validate(arch)
        .map_err(|e| SwizzleError::new_err(format!("operand {shown}: {e}")))?;
    Ok(op)
}

/// MN elements one instruction reads: a multiple of 8 within the tile (default the whole tile).
fn mma_mn(obj: Option<&Bound<'_, PyAny>>, op: &Operand) -> PyResult<u32> {
    match obj {
        None => Ok(op.tile.mn),
        Some(o) => {
            let n = uint("mma_mn", o)?;
            if n == 0 || n > op.tile.mn || !n.is_multiple_of(8) {
                return Err(SwizzleError::new_err(format!(
                    "mma_mn: {n} is not a multiple of 8 within the tile's MN = {}",
                    op.tile.mn
                )));
            }
            Ok(n)
        }
    }
}

/// A byte field of a descriptor (start, LBO, SBO): 18 bits.
fn byte_field(field: &'static str, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    let v = uint(field, obj)?;
    if v >= FIELD_RANGE {
        return Err(SwizzleError::new_err(format!(
            "{field}: {v} is past the descriptor's 18-bit byte range (0 .. {FIELD_RANGE})"
        )));
    }
    Ok(v)
}

/// A shared-memory matrix descriptor of `wgmma` (`"sm_90"`) or `tcgen05.mma` (`"sm_100"`): start address, LBO
/// and SBO in bytes, base offset, LBO mode and layout (`"NONE"`, `"SW32"`, `"SW64"`, `"SW128"`, sm_100's
/// `"SW128A32"`). One encoder for both: the bits agree wherever both define them.
///
///     swz.Descriptor("sm_100", 0x400, 16, 1024, "SW128").encode() == 0x4000_4040_0001_0040
#[pyclass(name = "Descriptor", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyDescriptor(pub Descriptor);

#[pymethods]
impl PyDescriptor {
    #[new]
    #[pyo3(signature = (arch, start, lbo, sbo, layout, base_offset = None, lbo_absolute = false))]
    fn new(
        arch: &Bound<'_, PyAny>,
        start: &Bound<'_, PyAny>,
        lbo: &Bound<'_, PyAny>,
        sbo: &Bound<'_, PyAny>,
        layout: &Bound<'_, PyAny>,
        base_offset: Option<&Bound<'_, PyAny>>,
        lbo_absolute: bool,
    ) -> PyResult<Self> {
        let arch = self::arch(arch)?;
        let mut d = Descriptor::new(
            arch,
            byte_field("start", start)?,
            byte_field("lbo", lbo)?,
            byte_field("sbo", sbo)?,
            self::layout(layout)?,
        );
        if let Some(b) = base_offset {
            d.base_offset = uint("base_offset", b)?;
            if d.base_offset > 7 {
                return Err(SwizzleError::new_err(format!(
                    "base_offset: {} does not fit bits 49-51 (0 to 7)",
                    d.base_offset
                )));
            }
        }
        if arch == Arch::Sm90 && d.layout == SmemLayout::Sw128Atom32 {
            return Err(SwizzleError::new_err(
                "layout: SW128A32 (128-byte swizzle with 32-byte atoms) is sm_100's; sm_90 has no such layout",
            ));
        }
        if arch == Arch::Sm90 && lbo_absolute {
            return Err(SwizzleError::new_err(
                "lbo_absolute: the LBO mode (bit 52) is sm_100's; on sm_90 the bit is reserved",
            ));
        }
        d.lbo_absolute = lbo_absolute;
        Ok(PyDescriptor(d))
    }

    /// The 64 bits as `arch` reads them, refusing reserved bits, a missing sm_100 version and invalid layout
    /// codes (`SwizzleError` with the reason `swz decode desc` gives).
    #[staticmethod]
    #[pyo3(signature = (bits, arch = None))]
    fn decode(bits: &Bound<'_, PyAny>, arch: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let (b, a) = bits_and_arch(bits, arch)?;
        Descriptor::decode(b, a).map(PyDescriptor).map_err(|e| {
            SwizzleError::new_err(format!("{b:#x} is not a valid {a} descriptor: {e}"))
        })
    }

    /// The fields of 64 bits as `arch` reads them, whatever the reserved bits hold (what `swz decode desc`
    /// prints before its verdict; `problems` says what is wrong with them).
    #[staticmethod]
    #[pyo3(signature = (bits, arch = None))]
    fn fields(bits: &Bound<'_, PyAny>, arch: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let (b, a) = bits_and_arch(bits, arch)?;
        Ok(PyDescriptor(Descriptor::fields(b, a)))
    }

    /// Every way 64 bits fail to be a descriptor of `arch` (empty when they are one).
    #[staticmethod]
    #[pyo3(signature = (bits, arch = None))]
    fn problems(bits: &Bound<'_, PyAny>, arch: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
        let (b, a) = bits_and_arch(bits, arch)?;
        let mut v = Vec::new();
        let mut from = 0;
        while let Err((i, e)) = Descriptor::bits_problem(b, a, from) {
            v.push(e.to_string());
            from = i + 1;
        }
        Ok(v)
    }

    /// The descriptor an instruction reading `mma_mn` MN elements (default: all) of `operand` at shared-memory
    /// byte address `start` takes: the layout, LBO and SBO its spec derives, strides it never takes 0 (as
    /// CuTe encodes them).
    #[staticmethod]
    #[pyo3(signature = (operand, arch = None, start = None, mma_mn = None))]
    fn of(
        operand: &Bound<'_, PyAny>,
        arch: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        mma_mn: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let arch = arch.map(self::arch).transpose()?.unwrap_or(Arch::Sm90);
        let op = self::operand(operand, arch)?;
        let start = start
            .map(|s| byte_field("start", s))
            .transpose()?
            .unwrap_or(0);
        let slice = self::mma_mn(mma_mn, &op)?;
        Ok(PyDescriptor(op.descriptor(arch, slice, start)))
    }

    /// The 64 bits.
    fn encode(&self) -> u64 {
        self.0.encode()
    }
    fn __int__(&self) -> u64 {
        self.0.encode()
    }
    fn __index__(&self) -> u64 {
        self.0.encode()
    }

    /// Does this descriptor read `operand` (an `OperandTile` or `"MODE:ELEM:MAJOR:MNxK"`) as TMA wrote it, for
    /// an instruction reading `mma_mn` of its MN elements? "matches", or every mismatch named.
    #[pyo3(signature = (operand, mma_mn = None))]
    fn check(
        &self,
        operand: &Bound<'_, PyAny>,
        mma_mn: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<LayoutCheck> {
        let op = self::operand(operand, self.0.arch)?;
        let slice = self::mma_mn(mma_mn, &op)?;
        Ok(desc_check(&self.0, &op, slice))
    }

    /// The shared-memory byte address element `(mn, k)` of the instruction's operand is read from, the way the
    /// hardware reads this descriptor (the PTX canonical layouts, the swizzle on absolute address bits). `major`
    /// and `elem` say how the operand is stored (a descriptor does not hold them); `k` is within the
    /// instruction's 32 bytes of K.
    #[pyo3(signature = (mn, k, major = None, elem = None))]
    fn element_address(
        &self,
        mn: &Bound<'_, PyAny>,
        k: &Bound<'_, PyAny>,
        major: Option<&Bound<'_, PyAny>>,
        elem: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u32> {
        let major = major.map(args::major).transpose()?.unwrap_or(Major::K);
        let eb = elem
            .map(args::elem)
            .transpose()?
            .unwrap_or(swizzle_core::Elem::BF16)
            .bytes();
        let (mn, k) = (uint("mn", mn)?, uint("k", k)?);
        if eb > 4 {
            return Err(SwizzleError::new_err(format!(
                "elem: {eb}-byte elements are not an MMA operand's (1, 2 or 4 bytes)"
            )));
        }
        if self.0.layout == SmemLayout::Sw128Atom32 && major == Major::K {
            return Err(SwizzleError::new_err(
                "major: the 32-byte-atom layout is MN-major only",
            ));
        }
        if mn >= MAX_MMA_MN || k >= 32 / eb {
            return Err(SwizzleError::new_err(format!(
                "({mn}, {k}) is outside one instruction's operand ({MAX_MMA_MN} MN by {} K elements of {eb} bytes)",
                32 / eb
            )));
        }
        Ok(element_address(&self.0, major, eb, mn, k))
    }

    /// `"sm_90"` or `"sm_100"`.
    #[getter]
    fn arch(&self) -> &'static str {
        self.0.arch.name()
    }
    /// Shared-memory byte address of the matrix.
    #[getter]
    fn start(&self) -> u32 {
        self.0.start
    }
    /// Leading dimension byte offset.
    #[getter]
    fn lbo(&self) -> u32 {
        self.0.lbo
    }
    /// Stride dimension byte offset.
    #[getter]
    fn sbo(&self) -> u32 {
        self.0.sbo
    }
    /// Bits 49-51: the row of the swizzle pattern the start falls on.
    #[getter]
    fn base_offset(&self) -> u32 {
        self.0.base_offset
    }
    /// The base offset the start address needs.
    #[getter]
    fn needed_base_offset(&self) -> u32 {
        self.0.needed_base_offset()
    }
    /// Bit 52 (sm_100): LBO is an absolute address (sm_103a only).
    #[getter]
    fn lbo_absolute(&self) -> bool {
        self.0.lbo_absolute
    }
    /// `"NONE"`, `"SW32"`, `"SW64"`, `"SW128"` or `"SW128A32"`.
    #[getter]
    fn layout(&self) -> &'static str {
        self.0.layout.name()
    }
    /// The layout in words (`"128-byte swizzle"`).
    #[getter]
    fn layout_words(&self) -> &'static str {
        self.0.layout.words()
    }
    /// The swizzle the layout applies to byte addresses.
    #[getter]
    fn swizzle(&self) -> PySwizzle {
        PySwizzle(self.0.layout.byte_swizzle())
    }
    /// Bytes after which the swizzle pattern repeats.
    #[getter]
    fn period(&self) -> u32 {
        self.0.layout.period()
    }

    fn __str__(&self) -> String {
        let d = &self.0;
        format!(
            "{} descriptor {:#018x}: start {:#x}, LBO {} B, SBO {} B, base offset {}{}, {}",
            d.arch,
            d.encode(),
            d.start,
            d.lbo,
            d.sbo,
            d.base_offset,
            if d.lbo_absolute {
                ", LBO an absolute address"
            } else {
                ""
            },
            d.layout.words()
        )
    }
    fn __repr__(&self) -> String {
        let d = &self.0;
        let mut extra = String::new();
        if d.base_offset != 0 {
            extra += &format!(", base_offset={}", d.base_offset);
        }
        if d.lbo_absolute {
            extra += ", lbo_absolute=True";
        }
        format!(
            "Descriptor({:?}, {:#x}, {}, {}, {:?}{extra})",
            d.arch.name(),
            d.start,
            d.lbo,
            d.sbo,
            d.layout.name()
        )
    }
}

fn bits_and_arch(
    bits: &Bound<'_, PyAny>,
    arch: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u64, Arch)> {
    let b = self::bits("bits", bits, 64)?;
    let a = arch.map(self::arch).transpose()?.unwrap_or(Arch::Sm90);
    Ok((b, a))
}

fn desc_check(d: &Descriptor, op: &Operand, slice: u32) -> LayoutCheck {
    let found = d.mismatches_operand(op, slice);
    LayoutCheck::of(
        "the descriptor",
        found.iter().map(|m| m.to_string()).collect(),
        found.iter().map(|m| m.message().to_string()).collect(),
    )
}

/// A check's answer: `str()` is what `swz check desc|tma|idesc` prints (`matches`, or one line per mismatch),
/// `verdict` the line it prints on stderr when it exits 1.
#[pyclass(name = "LayoutCheck", module = "swz", frozen)]
pub struct LayoutCheck {
    what: &'static str,
    mismatches: Vec<String>,
    reasons: Vec<String>,
    /// The bits are not a descriptor at all: why (then nothing is compared).
    invalid: Option<String>,
}

impl LayoutCheck {
    fn of(what: &'static str, mismatches: Vec<String>, reasons: Vec<String>) -> LayoutCheck {
        LayoutCheck {
            what,
            mismatches,
            reasons,
            invalid: None,
        }
    }

    fn invalid(what: &'static str, reason: String, line: String) -> LayoutCheck {
        LayoutCheck {
            what,
            mismatches: Vec::new(),
            reasons: vec![reason],
            invalid: Some(line),
        }
    }
}

#[pymethods]
impl LayoutCheck {
    /// True when the value describes the operand exactly (`swz check` exits 0).
    #[getter]
    fn matches(&self) -> bool {
        self.invalid.is_none() && self.mismatches.is_empty()
    }
    /// Each mismatch in words, with its numbers (`units: SBO reads as 16384 B, ...`).
    #[getter]
    fn mismatches(&self) -> Vec<String> {
        self.mismatches.clone()
    }
    /// Each mismatch's class, without numbers (`units: LBO/SBO written in bytes instead of 16-byte units`);
    /// for an instruction descriptor the field that differs; for bits that are no descriptor, why.
    #[getter]
    fn reasons(&self) -> Vec<String> {
        self.reasons.clone()
    }
    /// The one line `swz check` prints on stderr when the value does not match (None when it matches).
    #[getter]
    fn verdict(&self) -> Option<String> {
        if let Some(line) = &self.invalid {
            return Some(line.clone());
        }
        let n = self.mismatches.len();
        (n > 0).then(|| {
            format!(
                "{} does not match the operand: {n} mismatch{}",
                self.what,
                if n == 1 { "" } else { "es" }
            )
        })
    }
    fn __str__(&self) -> String {
        if self.invalid.is_some() {
            return String::new();
        }
        if self.mismatches.is_empty() {
            return "matches\n".into();
        }
        self.mismatches.iter().map(|m| format!("{m}\n")).collect()
    }
    fn __bool__(&self) -> bool {
        self.matches()
    }
    fn __repr__(&self) -> String {
        format!(
            "<LayoutCheck {}: {}>",
            self.what,
            self.verdict().unwrap_or_else(|| "matches".into())
        )
    }
}

/// Check descriptor `bits` of `arch` against `operand` (an `OperandTile` or `"MODE:ELEM:MAJOR:MNxK"`) read
/// `mma_mn` MN elements at a time (wgmma's A: 64; default the tile's MN): `swz check desc`.
#[pyfunction]
#[pyo3(signature = (bits, operand, arch = None, mma_mn = None))]
pub fn check_desc(
    bits: &Bound<'_, PyAny>,
    operand: &Bound<'_, PyAny>,
    arch: Option<&Bound<'_, PyAny>>,
    mma_mn: Option<&Bound<'_, PyAny>>,
) -> PyResult<LayoutCheck> {
    let (b, a) = bits_and_arch(bits, arch)?;
    let op = self::operand(operand, a)?;
    let d = match Descriptor::decode(b, a) {
        Ok(d) => d,
        Err(e) => {
            let hint = match (a, swizzle_core::descriptor::field(b, 46, 3)) {
                (Arch::Sm90, 1) => " (its version bits say sm_100: arch=\"sm_100\")",
                _ => "",
            };
            return Ok(LayoutCheck::invalid(
                "the descriptor",
                e.to_string(),
                format!("{b:#x} is not a valid {a} descriptor: {e}{hint}"),
            ));
        }
    };
    let slice = self::mma_mn(mma_mn, &op)?;
    Ok(desc_check(&d, &op, slice))
}

/// A `tcgen05.mma` instruction descriptor: the instruction it describes, as the spelling
/// `A:B:D:MxN:AMAJOR:BMAJOR[:cta_group]` writes it.
///
///     swz.InstrDesc("bf16:bf16:f32:128x256:K:K").encode() == 0x0840_0490
#[pyclass(name = "InstrDesc", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyInstrDesc(pub InstrDesc);

fn instr(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<InstrDesc> {
    if let Ok(d) = obj.cast::<PyInstrDesc>() {
        return Ok(d.get().0);
    }
    if !obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{param} must be an InstrDesc or a spelling A:B:D:MxN:AMAJOR:BMAJOR[:cta_group] (e.g. \"bf16:bf16:f32:128x256:K:K\")"
        )));
    }
    let t = args::text(param, obj)?;
    let d = swizzle_core::operand::parse_instr(&t).map_err(|e| err_in(param, e))?;
    d.validate().map_err(|e| err_in(param, e))?;
    Ok(d)
}

/// `cta_group` when the spelling omits it.
const fn default_cta_group(m: u32) -> u32 {
    if m == 256 {
        2
    } else {
        1
    }
}

#[pymethods]
impl PyInstrDesc {
    #[new]
    fn new(mma: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyInstrDesc(instr(mma, "mma")?))
    }

    /// Decode 32 bits under the instruction's `kind` (`"f16"`, `"tf32"`, `"f8f6f4"`; default: read from A's type
    /// code) and `cta_group` (default 2 when M = 256, else 1), refusing reserved bits and every shape rule
    /// (`SwizzleError` with the reason `swz decode idesc` gives).
    #[staticmethod]
    #[pyo3(signature = (bits, kind = None, cta_group = None))]
    fn decode(
        bits: &Bound<'_, PyAny>,
        kind: Option<&Bound<'_, PyAny>>,
        cta_group: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let b = self::bits("bits", bits, 32)? as u32;
        let kind = match kind {
            Some(k) => {
                let t = args::text("kind", k)?;
                Kind::from_name(t.trim()).ok_or_else(|| {
                    SwizzleError::new_err(format!("kind: expected f16, tf32 or f8f6f4, got {t:?}"))
                })?
            }
            None => InstrDesc::guess_kind(b),
        };
        let g = match cta_group {
            Some(g) => match uint("cta_group", g)? {
                g @ (1 | 2) => g,
                g => {
                    return Err(SwizzleError::new_err(format!(
                        "cta_group: expected 1 or 2, got {g}"
                    )))
                }
            },
            None => default_cta_group(((b >> 24) & 0x1F) << 4),
        };
        InstrDesc::decode(b, kind, g).map(PyInstrDesc).map_err(|e| {
            SwizzleError::new_err(format!(
                "{b:#x} is not a valid kind::{} instruction descriptor: {e}",
                kind.name()
            ))
        })
    }

    /// The 32 bits.
    fn encode(&self) -> u32 {
        self.0.encode()
    }
    fn __int__(&self) -> u32 {
        self.0.encode()
    }
    fn __index__(&self) -> u32 {
        self.0.encode()
    }

    /// A's type (`"bf16"`, `"e4m3"`, ...).
    #[getter]
    fn a(&self) -> &'static str {
        self.0.a.name()
    }
    /// B's type.
    #[getter]
    fn b(&self) -> &'static str {
        self.0.b.name()
    }
    /// The accumulator's type: `"f32"` or `"f16"`.
    #[getter]
    fn d(&self) -> &'static str {
        if self.0.d_f32 {
            "f32"
        } else {
            "f16"
        }
    }
    /// Rows of D (of the CTA pair with `cta_group` 2).
    #[getter]
    fn m(&self) -> u32 {
        self.0.m
    }
    /// Columns of D.
    #[getter]
    fn n(&self) -> u32 {
        self.0.n
    }
    /// K of one instruction, in elements.
    #[getter]
    fn k(&self) -> u32 {
        self.0.kind().k()
    }
    /// `"f16"`, `"tf32"` or `"f8f6f4"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind().name()
    }
    /// `"K"` or `"MN"` (bit 15).
    #[getter]
    fn a_major(&self) -> &'static str {
        self.0.a_major.name()
    }
    /// `"K"` or `"MN"` (bit 16).
    #[getter]
    fn b_major(&self) -> &'static str {
        self.0.b_major.name()
    }
    /// Bit 13.
    #[getter]
    fn negate_a(&self) -> bool {
        self.0.negate_a
    }
    /// Bit 14.
    #[getter]
    fn negate_b(&self) -> bool {
        self.0.negate_b
    }
    /// The instruction's CTA group (1 or 2).
    #[getter]
    fn cta_group(&self) -> u32 {
        self.0.cta_group
    }
    /// Bits 30-31 (`.ws` only): 0 none, 1 = 8, 2 = 16, 3 = 32.
    #[getter]
    fn max_shift(&self) -> u32 {
        self.0.max_shift
    }
    /// Rows of D in each CTA of the group.
    #[getter]
    fn rows_per_cta(&self) -> u32 {
        self.0.rows_per_cta()
    }
    /// Tensor-memory columns the accumulator occupies per CTA.
    #[getter]
    fn tmem_columns(&self) -> u32 {
        self.0.tmem_columns()
    }
    /// Columns `tcgen05.alloc` must give for the accumulator (a power of two, at least 32).
    #[getter]
    fn tmem_alloc_columns(&self) -> u32 {
        self.0.tmem_alloc_columns()
    }

    fn __str__(&self) -> String {
        let d = &self.0;
        if d.cta_group == default_cta_group(d.m) {
            instr_text(d)
        } else {
            format!("{}:{}", instr_text(d), d.cta_group)
        }
    }
    fn __repr__(&self) -> String {
        format!("InstrDesc({:?})", self.__str__())
    }
}

/// Check instruction descriptor `bits` against the instruction the kernel means (`mma`: an `InstrDesc` or
/// `"A:B:D:MxN:AMAJOR:BMAJOR[:cta_group]"`): `swz check idesc`. A field one bit off often reads as another
/// legal shape; the first field that differs is named.
#[pyfunction]
pub fn check_idesc(bits: &Bound<'_, PyAny>, mma: &Bound<'_, PyAny>) -> PyResult<LayoutCheck> {
    const WHAT: &str = "the instruction descriptor";
    let b = self::bits("bits", bits, 32)? as u32;
    let meant = instr(mma, "mma")?;
    let read = match InstrDesc::decode(b, meant.kind(), meant.cta_group) {
        Ok(d) => d,
        Err(e) => {
            return Ok(LayoutCheck::invalid(
                WHAT,
                e.to_string(),
                format!(
                    "{b:#x} is not a valid kind::{} instruction descriptor: {e}",
                    meant.kind().name()
                ),
            ))
        }
    };
    Ok(match read.first_difference(&meant) {
        None => LayoutCheck::of(WHAT, Vec::new(), Vec::new()),
        Some(field) => LayoutCheck::of(
            WHAT,
            vec![format!(
                "{field}: the descriptor encodes {}, the instruction is {} (expected {:#010x})",
                instr_text(&read),
                instr_text(&meant),
                meant.encode()
            )],
            vec![field.to_string()],
        ),
    })
}

/// A list of non-negative integers below 2**64 (`param` names it).
fn u64_list(param: &str, obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{param} must be a sequence of integers, got str"
        )));
    }
    let mut v = Vec::new();
    for item in obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("{param} must be a sequence of integers")))?
    {
        if v.len() == MAX_LIST {
            return Err(SwizzleError::new_err(format!(
                "{param}: more than {MAX_LIST} values; a tensor map has at most 5 dimensions"
            )));
        }
        v.push(bits(param, &item?, 64)?);
    }
    Ok(v)
}

/// Check the arguments of `cuTensorMapEncodeTiled` (element type, `globalDim`, `globalStrides` of dimensions
/// 1.. in bytes, `boxDim`, swizzle, interleave) and the shared-memory destination address against the operand
/// tile one box fills: `swz check tma`.
#[pyfunction]
#[pyo3(signature = (operand, *, dtype, dims, strides, box_dim, swizzle, smem, interleave = None))]
#[allow(clippy::too_many_arguments)]
pub fn check_tma(
    operand: &Bound<'_, PyAny>,
    dtype: &Bound<'_, PyAny>,
    dims: &Bound<'_, PyAny>,
    strides: &Bound<'_, PyAny>,
    box_dim: &Bound<'_, PyAny>,
    swizzle: &Bound<'_, PyAny>,
    smem: &Bound<'_, PyAny>,
    interleave: Option<&Bound<'_, PyAny>>,
) -> PyResult<LayoutCheck> {
    // A map's tile only needs TMA's rules (any element width in either major): sm_100's.
    let op = self::operand(operand, Arch::Sm100)?;
    let dims = u64_list("dims", dims)?;
    let strides = u64_list("strides", strides)?;
    let boxes = u64_list("box_dim", box_dim)?;
    let rank = dims.len();
    if !(1..=5).contains(&rank) {
        return Err(SwizzleError::new_err(format!(
            "dims: {rank} dimensions; a tensor map has 1 to 5"
        )));
    }
    if boxes.len() != rank {
        return Err(SwizzleError::new_err(format!(
            "box_dim: {} values for {rank} dimensions",
            boxes.len()
        )));
    }
    if strides.len() + 1 != rank {
        return Err(SwizzleError::new_err(format!(
            "strides: {} values; a rank-{rank} map takes {} (dimensions 1..)",
            strides.len(),
            rank - 1
        )));
    }
    let sw = args::text("swizzle", swizzle)?;
    let swizzle = TmaSwizzle::parse(&sw).ok_or_else(|| {
        SwizzleError::new_err(format!(
            "swizzle: unknown mode {sw:?} (NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B)"
        ))
    })?;
    let interleave = match interleave {
        None => TmaInterleave::None,
        Some(i) => {
            let t = args::text("interleave", i)?;
            TmaInterleave::parse(&t).ok_or_else(|| {
                SwizzleError::new_err(format!("interleave: expected NONE, 16B or 32B, got {t:?}"))
            })?
        }
    };
    let elem_bytes = args::elem_named("dtype", dtype)?.bytes();
    let smem = uint("smem", smem)?;
    let map = TmaMap::from_lists(
        elem_bytes, &dims, &strides, &boxes, interleave, swizzle, smem,
    );
    let found = map.mismatches_operand(&op);
    Ok(LayoutCheck::of(
        "the tensor map",
        found.iter().map(|m| m.to_string()).collect(),
        found.iter().map(|m| m.message().to_string()).collect(),
    ))
}
