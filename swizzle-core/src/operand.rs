//! How an MMA operand tile is written as text (`swz check desc --operand`, `swz check tma --operand`):
//! `MODE:ELEM:MAJOR:MNxK`, each part spelled as everywhere else ([`crate::spelling`]).
//!
//! | part | spellings |
//! |---|---|
//! | MODE | the byte mode TMA writes and the descriptor reads: `NONE`, `SW32`, `SW64`, `SW128` (or `CU_TENSOR_MAP_SWIZZLE_*`); sm_100's 128-byte swizzle with 32-byte atoms `SW128A32` ([`parse_operand`]) |
//! | ELEM | an element type: `bf16`, `f16`, `tf32`, `e4m3`, `u8`, ... |
//! | MAJOR | `K` (K contiguous: A row-major, B "N x K") or `MN` |
//! | MNxK | the extents in elements: M (operand A) or N (operand B) by K, e.g. `128x64` |
//!
//! ```
//! use swizzle_core::operand::parse;
//! use swizzle_core::wgmma::{Major, OperandTile};
//! use swizzle_core::{ByteMode, Elem};
//! assert_eq!(parse("SW128:bf16:K:128x64"), Ok(OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64)));
//! assert!(parse("SW128:bf16:K").is_err());
//! assert!(parse("SW256:bf16:K:128x64").is_err());
//! ```

use crate::spelling::{self, SpellingError, SwizzleSpelling};
use crate::wgmma::{Major, OperandTile};
use core::fmt;

/// Why an operand spelling is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandSpellingError<'a> {
    /// Not four `:`-separated parts.
    Shape(&'a str),
    /// The mode part.
    Mode(SpellingError<'a>),
    /// A swizzle given as `B,M,S` layers: an operand's swizzle is a byte mode.
    NotAMode(&'a str),
    /// The element part.
    Elem(SpellingError<'a>),
    /// Not `K` or `MN`.
    Major(&'a str),
    /// Not `MNxK`.
    Extents(&'a str),
    /// A number in `MNxK`.
    Number(SpellingError<'a>),
}

impl fmt::Display for OperandSpellingError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OperandSpellingError::Shape(t) => write!(
                f,
                "expected an operand as MODE:ELEM:MAJOR:MNxK (e.g. SW128:bf16:K:128x64), got {t:?}"
            ),
            OperandSpellingError::Mode(e) => write!(f, "operand mode: {e}"),
            OperandSpellingError::NotAMode(t) => write!(
                f,
                "operand mode {t:?}: an operand tile's swizzle is a byte mode (NONE, SW32, SW64, SW128)"
            ),
            OperandSpellingError::Elem(e) => write!(f, "operand element: {e}"),
            OperandSpellingError::Major(t) => {
                write!(f, "operand major {t:?}: expected K or MN")
            }
            OperandSpellingError::Extents(t) => {
                write!(f, "operand extents {t:?}: expected MNxK (e.g. 128x64)")
            }
            OperandSpellingError::Number(e) => write!(f, "operand extents: {e}"),
        }
    }
}

impl core::error::Error for OperandSpellingError<'_> {}

/// `MODE:ELEM:MAJOR:MNxK`. Only the spelling is checked here: whether the tile is a legal operand is
/// [`OperandTile::validate`]'s (the checks report it).
pub fn parse(text: &str) -> Result<OperandTile, OperandSpellingError<'_>> {
    let t = text.trim();
    let (mode, rest) = split_mode(t)?;
    let mode = match spelling::swizzle(mode).map_err(OperandSpellingError::Mode)? {
        SwizzleSpelling::Mode(m) => m,
        SwizzleSpelling::Layers(_) => return Err(OperandSpellingError::NotAMode(mode)),
    };
    let (elem, major, mn, k) = parse_rest(t, rest)?;
    Ok(OperandTile::new(mode, elem, major, mn, k))
}

/// [`parse`], also taking sm_100's 128-byte swizzle with 32-byte atoms as MODE `SW128A32` (or
/// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B`): an [`Operand`](crate::descriptor::Operand).
///
/// ```
/// use swizzle_core::descriptor::{Operand, SmemLayout};
/// let op = swizzle_core::operand::parse_operand("SW128A32:bf16:MN:128x64").unwrap();
/// assert_eq!(op.layout, SmemLayout::Sw128Atom32);
/// assert_eq!(op.strides(), (64 * 128, 512));
/// ```
pub fn parse_operand(text: &str) -> Result<crate::descriptor::Operand, OperandSpellingError<'_>> {
    use crate::descriptor::{Operand, SmemLayout};
    let t = text.trim();
    let (mode, rest) = split_mode(t)?;
    if mode == "SW128A32" || mode == "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B" {
        let (elem, major, mn, k) = parse_rest(t, rest)?;
        return Ok(Operand {
            tile: OperandTile::new(crate::ByteMode::Sw128, elem, major, mn, k),
            layout: SmemLayout::Sw128Atom32,
        });
    }
    parse(t).map(Operand::of)
}

/// (MODE, the rest) of `MODE:ELEM:MAJOR:MNxK`.
fn split_mode(t: &str) -> Result<(&str, &str), OperandSpellingError<'_>> {
    match t.split_once(':') {
        Some((m, rest)) if rest.split(':').count() == 3 => Ok((m.trim(), rest)),
        _ => Err(OperandSpellingError::Shape(t)),
    }
}

/// `ELEM:MAJOR:MNxK`.
fn parse_rest<'a>(
    t: &'a str,
    rest: &'a str,
) -> Result<(crate::Elem, Major, u32, u32), OperandSpellingError<'a>> {
    let mut parts = rest.split(':');
    let (Some(elem), Some(major), Some(ext)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(OperandSpellingError::Shape(t));
    };
    let elem = spelling::elem(elem).map_err(OperandSpellingError::Elem)?;
    let major = match major.trim() {
        "K" => Major::K,
        "MN" => Major::MN,
        m => return Err(OperandSpellingError::Major(m)),
    };
    let (mn, k) = ext
        .split_once('x')
        .ok_or(OperandSpellingError::Extents(ext))?;
    let mn = spelling::decimal_u32("MN", mn.trim()).map_err(OperandSpellingError::Number)?;
    let k = spelling::decimal_u32("K", k.trim()).map_err(OperandSpellingError::Number)?;
    Ok((elem, major, mn, k))
}

/// The instruction `d` as [`parse_instr`] spells it, without the CTA group: `A:B:D:MxN:AMAJOR:BMAJOR`.
///
/// ```
/// use swizzle_core::operand::{instr_text, parse_instr};
/// let d = parse_instr("e4m3:e4m3:f16:64x128:K:MN").unwrap();
/// assert_eq!(instr_text(&d), "e4m3:e4m3:f16:64x128:K:MN");
/// ```
#[cfg(feature = "std")]
pub fn instr_text(d: &crate::tcgen05::InstrDesc) -> String {
    format!(
        "{}:{}:{}:{}x{}:{}:{}",
        d.a.name(),
        d.b.name(),
        if d.d_f32 { "f32" } else { "f16" },
        d.m,
        d.n,
        d.a_major.name(),
        d.b_major.name()
    )
}

/// A `tcgen05.mma` instruction as text: `A:B:D:MxN:AMAJOR:BMAJOR[:cta_group]`, e.g. `bf16:bf16:f32:128x256:K:K`
/// or `e4m3:e4m3:f32:256x256:K:MN:2` (types `f16`, `bf16`, `tf32`, `e4m3`, `e5m2`, `e2m3`, `e3m2`, `e2m1`; D `f32`
/// or `f16`; the CTA group defaults to 2 for M = 256, else 1). The descriptor's rules are
/// [`InstrDesc::validate`](crate::tcgen05::InstrDesc::validate)'s.
///
/// ```
/// let d = swizzle_core::operand::parse_instr("bf16:bf16:f32:128x256:K:K").unwrap();
/// assert_eq!(d.encode(), 0x0840_0490);
/// ```
pub fn parse_instr(text: &str) -> Result<crate::tcgen05::InstrDesc, &'static str> {
    use crate::tcgen05::{InstrDesc, MmaType};
    const SHAPE: &str =
        "expected A:B:D:MxN:AMAJOR:BMAJOR[:cta_group] (e.g. bf16:bf16:f32:128x256:K:K)";
    let p: [Option<&str>; 8] = {
        let mut it = text.trim().split(':');
        core::array::from_fn(|_| it.next())
    };
    let (Some(a), Some(b), Some(d), Some(mn), Some(am), Some(bm), g, None) =
        (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
    else {
        return Err(SHAPE);
    };
    let ty = |t: &str| {
        MmaType::from_name(t.trim())
            .ok_or("unknown A/B type (f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1)")
    };
    let d_f32 = match d.trim() {
        "f32" => true,
        "f16" => false,
        _ => return Err("D must be f32 or f16"),
    };
    let major = |m: &str| match m.trim() {
        "K" => Ok(Major::K),
        "MN" => Ok(Major::MN),
        _ => Err("majors are K or MN"),
    };
    let (m, n) = mn.split_once('x').ok_or(SHAPE)?;
    let num = |t: &str| {
        spelling::decimal_u32("M/N", t.trim()).map_err(|_| "M and N are decimal integers")
    };
    let mut desc = InstrDesc::new(
        ty(a)?,
        ty(b)?,
        d_f32,
        num(m)?,
        num(n)?,
        major(am)?,
        major(bm)?,
    );
    if let Some(g) = g {
        desc.cta_group = match g.trim() {
            "1" => 1,
            "2" => 2,
            _ => return Err("cta_group is 1 or 2"),
        };
    }
    Ok(desc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ByteMode, Elem};

    #[test]
    fn spellings() {
        let t = OperandTile::new(ByteMode::Sw64, Elem::F16, Major::MN, 64, 32);
        assert_eq!(parse("SW64:fp16:MN:64x32"), Ok(t));
        assert_eq!(parse("CU_TENSOR_MAP_SWIZZLE_64B:half:MN:64x32"), Ok(t));
        for bad in [
            "",
            "SW64:f16:MN",
            "SW64:f16:MN:64x32:1",
            "sw64:f16:MN:64x32",
            "3,4,3:f16:MN:64x32",
            "SW64:f17:MN:64x32",
            "SW64:f16:M:64x32",
            "SW64:f16:MN:64",
            "SW64:f16:MN:64x-3",
            "SW64:f16:MN:99999999999x32",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
