//! How specs are written as text, parsed and checked in one place: every `swz` subcommand, `swz emit-header
//! --layout`, the generated header's names and the macros read spellings through these functions, so one
//! spelling means one thing everywhere and is refused everywhere with the same reason.
//!
//! | what | spellings |
//! |---|---|
//! | swizzle | `B,M,S` (`S` may be negative), `Sw<B,M,S>`, two layers `B,M,S+B,M,S` (left first, either form per layer) |
//! | byte mode | `NONE` (also `none`), `SW32`, `SW64`, `SW128` (upper case; CUDA's `CU_TENSOR_MAP_SWIZZLE_*` too) |
//! | raster order | `identity`, `strip`, `cutlass`, `group-m` (also `group_m`), `serpentine`, `morton`, `diagonal` |
//! | order parameter | `ORDER:N`, `ORDER(N)`, `ORDER(KEY=N)`; keys `tile` (strip), `log_tile` / `log-tile` (cutlass), `group` / `group_m` / `group-m` (group-m), `panel` (serpentine) |
//! | element type / unit | `f16`, `bf16`, `f32`, ... and the aliases `fp16`, `half`, `fp32`, `float`, `fp64`, `double`, `int`, `fp8e4m3`, `fp8e5m2`; units add `bytes` (also `byte`) |
//! | number | decimal digits only (no sign where none is allowed, no `+`, no literal suffix such as `3u8`) |
//!
//! No allocation: errors borrow the text they quote ([`SpellingError`], with `Display`).
//!
//! ```
//! use swizzle_spec::spelling::{self, SwizzleSpelling};
//! use swizzle_spec::{ByteMode, Raster, Swizzle, SwizzleFn};
//! assert_eq!(spelling::swizzle("Sw<3,3,3>"), Ok(SwizzleSpelling::Layers(SwizzleFn::Single(Swizzle::new(3, 3, 3)))));
//! assert_eq!(spelling::swizzle("SW128"), Ok(SwizzleSpelling::Mode(ByteMode::Sw128)));
//! assert!(spelling::swizzle("3,3,3++3,3,3").is_err());
//! assert_eq!(spelling::raster("group-m(group_m=8)"), Ok(Raster::GroupM { group: 8 }));
//! assert!(spelling::raster("strip(panel=2)").is_err());
//! ```
use crate::compose::{Composed, SwizzleFn};
use crate::raster::{Raster, RasterError};
use crate::rules::RuleError;
use crate::swizzle::Swizzle;
use crate::units::{ByteMode, Elem, Unit};
use core::fmt;

/// A swizzle as written: a named byte mode (acts on byte addresses) or one or two `B,M,S` layers (act on whatever
/// unit the context says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwizzleSpelling {
    /// A named byte mode (`SW128`, `NONE`): always acts on byte addresses.
    Mode(ByteMode),
    /// One `B,M,S` layer or two joined by `+`, acting on the context's unit.
    Layers(SwizzleFn),
}

impl SwizzleSpelling {
    /// The swizzle as written (a mode: on bytes).
    pub const fn swizzle_fn(self) -> SwizzleFn {
        match self {
            SwizzleSpelling::Mode(m) => SwizzleFn::Single(m.swizzle()),
            SwizzleSpelling::Layers(f) => f,
        }
    }
}

/// Why a spelling is refused. Quotes borrow the input; `Display` is the one-line reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpellingError<'a> {
    /// A byte mode in the wrong case (`sw128`).
    ModeCase {
        /// The text as written (`sw128`).
        text: &'a str,
        /// The mode it would name in upper case.
        mode: ByteMode,
    },
    /// `SW` something that is no mode (`SW256`).
    UnknownMode(&'a str),
    /// A byte mode where only `B,M,S` layers are allowed (a layer of a composition, `--then`).
    ModeNotALayer(&'a str),
    /// Not `B,M,S`, `Sw<B,M,S>` or a mode.
    NotASwizzle(&'a str),
    /// Not `B,M,S` or `Sw<B,M,S>` where only one layer is accepted ([`only_layer`]).
    NotALayer(&'a str),
    /// `X+Y+Z` or an empty layer (`3,3,3++3,3,3`).
    Layers(&'a str),
    /// A field that is not a decimal integer.
    NotAnInteger {
        /// The field's name (`B`, `M`, `S`, `tile`, ...).
        field: &'static str,
        /// The text given for it.
        text: &'a str,
    },
    /// A negative value where none is allowed.
    Negative {
        /// The field's name (`B`, `M`, `S`, `tile`, ...).
        field: &'static str,
        /// The text given for it.
        text: &'a str,
    },
    /// An integer beyond its type (`B = 99999999999`).
    TooLarge {
        /// The field's name (`B`, `M`, `S`, `tile`, ...).
        field: &'static str,
        /// The text given for it.
        text: &'a str,
    },
    /// A literal with a type suffix (`3u8`, `3f32`).
    Suffix {
        /// The field's name (`B`, `M`, `S`, `tile`, ...).
        field: &'static str,
        /// The text given for it.
        text: &'a str,
    },
    /// A swizzle field beyond the rules' range on its own (`M = 40`).
    FieldOutOfRange {
        /// The field's name (`B`, `M`, `S`, `tile`, ...).
        field: &'static str,
        /// The text given for it.
        text: &'a str,
    },
    /// The swizzle rules (`|S| >= B`, `B + M + |S| <= 32`).
    Rule(RuleError),
    /// Not one of the raster orders.
    UnknownOrder(&'a str),
    /// Not `ORDER`, `ORDER:N`, `ORDER(N)` or `ORDER(KEY=N)`.
    NotARaster(&'a str),
    /// An order that takes a parameter got none.
    MissingParameter {
        /// The order's name.
        order: &'static str,
        /// The key of the parameter it needs.
        key: &'static str,
    },
    /// A parameter given to an order that takes none, or under another order's key.
    NotAParameter {
        /// The order's name.
        order: &'static str,
        /// The key as written, or `"a parameter"` for a bare `ORDER:N` / `ORDER(N)`.
        key: &'a str,
        /// The key the order does take, if any.
        takes: Option<&'static str>,
    },
    /// A parameter out of its range (`tile = 0`, `log_tile > 16`).
    Parameter(RasterError),
    /// Not an element type.
    UnknownElem(&'a str),
    /// Not `bytes` or an element type.
    UnknownUnit(&'a str),
}

/// The byte modes as a list, for messages.
const MODES: &str = "NONE, SW32, SW64, SW128";
/// The orders as a list, for messages.
const ORDERS_LIST: &str = "identity, strip, cutlass, group-m, serpentine, morton, diagonal";

impl fmt::Display for SpellingError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SpellingError::ModeCase { text, mode } => write!(
                f,
                "{text:?}: byte modes are upper-case, did you mean {}? (modes: {MODES})",
                mode.name()
            ),
            SpellingError::UnknownMode(t) => {
                write!(f, "unknown byte mode {t:?}: expected one of {MODES} (they act on byte addresses)")
            }
            SpellingError::ModeNotALayer(t) => write!(
                f,
                "{t:?} is a byte mode; here only B,M,S layers are allowed (a mode acts on bytes, a layer on the \
                 offsets given)"
            ),
            SpellingError::NotASwizzle(t) => write!(
                f,
                "expected B,M,S (e.g. 3,3,3), Sw<B,M,S>, two layers B,M,S+B,M,S, or a byte mode ({MODES}), got {t:?}"
            ),
            SpellingError::NotALayer(t) => {
                write!(f, "expected one layer B,M,S (e.g. 3,3,3) or Sw<B,M,S>, got {t:?}")
            }
            SpellingError::Layers(t) => write!(
                f,
                "{t:?}: a swizzle has one layer or two joined by one `+` (B,M,S+B,M,S)"
            ),
            SpellingError::NotAnInteger { field, text } => {
                write!(f, "{field} = {text:?} is not an integer")
            }
            SpellingError::Negative { field, text } => write!(f, "{field} must be >= 0, got {text}"),
            SpellingError::TooLarge { field, text } => write!(f, "{field} = {text} is out of range"),
            SpellingError::Suffix { field, text } => write!(
                f,
                "`{text}`: write {field} as a plain integer, without a type suffix"
            ),
            SpellingError::FieldOutOfRange { field, text } => write!(
                f,
                "{field} = {text} is out of range: B + M + |S| must be <= {}",
                crate::rules::MAX_SPAN_BITS
            ),
            SpellingError::Rule(e) => write!(f, "{e}"),
            SpellingError::UnknownOrder(t) => {
                write!(f, "unknown raster order {t:?} (expected one of: {ORDERS_LIST})")
            }
            SpellingError::NotARaster(t) => write!(
                f,
                "expected a raster as ORDER, ORDER:N or ORDER(KEY=N) (e.g. strip:4), got {t:?}"
            ),
            SpellingError::MissingParameter { order, key } => {
                write!(f, "raster order {order:?} needs a parameter, {key} (e.g. {order}:4)")
            }
            SpellingError::NotAParameter { order, key, takes } => match takes {
                Some(k) => write!(f, "{key:?} is not a parameter of {order} (it takes {k})"),
                None => write!(f, "raster order {order:?} takes no parameter (got {key})"),
            },
            SpellingError::Parameter(e) => write!(f, "{e}"),
            SpellingError::UnknownElem(t) => write!(
                f,
                "unknown element type {t:?} (try f16, bf16, f32, f64, u8)"
            ),
            SpellingError::UnknownUnit(t) => {
                write!(f, "unknown unit {t:?} (bytes, or an element type such as f16, f32)")
            }
        }
    }
}

impl core::error::Error for SpellingError<'_> {}

// ---- numbers ------------------------------------------------------------------------------------------------

/// A decimal `u32`: digits only. `field` names it in the error.
///
/// ```
/// use swizzle_spec::spelling::decimal_u32;
/// assert_eq!(decimal_u32("B", "3"), Ok(3));
/// assert!(decimal_u32("B", "3u8").is_err());
/// assert!(decimal_u32("B", "-3").is_err());
/// assert!(decimal_u32("B", "4294967296").is_err());
/// ```
pub fn decimal_u32<'a>(field: &'static str, text: &'a str) -> Result<u32, SpellingError<'a>> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if text.is_empty() {
        return Err(SpellingError::NotAnInteger { field, text });
    }
    if digits == 0 {
        return Err(match text.strip_prefix('-') {
            Some(rest) if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                SpellingError::Negative { field, text }
            }
            _ => SpellingError::NotAnInteger { field, text },
        });
    }
    if digits < text.len() {
        let rest = &text.as_bytes()[digits..];
        let suffix = rest[0].is_ascii_alphabetic()
            && rest.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
        return Err(if suffix {
            SpellingError::Suffix { field, text }
        } else {
            SpellingError::NotAnInteger { field, text }
        });
    }
    let mut n = 0u32;
    for b in text.bytes() {
        n = match n
            .checked_mul(10)
            .and_then(|n| n.checked_add((b - b'0') as u32))
        {
            Some(n) => n,
            None => return Err(SpellingError::TooLarge { field, text }),
        };
    }
    Ok(n)
}

/// A decimal `i32`: an optional `-`, then digits.
pub fn decimal_i32<'a>(field: &'static str, text: &'a str) -> Result<i32, SpellingError<'a>> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let n = match decimal_u32(field, digits) {
        Ok(n) => n as i64,
        Err(SpellingError::Negative { .. }) | Err(SpellingError::NotAnInteger { .. }) => {
            return Err(SpellingError::NotAnInteger { field, text })
        }
        Err(SpellingError::TooLarge { .. }) => return Err(SpellingError::TooLarge { field, text }),
        Err(SpellingError::Suffix { .. }) => return Err(SpellingError::Suffix { field, text }),
        Err(e) => return Err(e),
    };
    let n = if neg { -n } else { n };
    i32::try_from(n).map_err(|_| SpellingError::TooLarge { field, text })
}

// ---- swizzles -----------------------------------------------------------------------------------------------

/// A swizzle spelling: a byte mode (`NONE` or `none`, `SW32`, `SW64`, `SW128`), or one or two layers
/// ([`layer`], joined by one `+`).
pub fn swizzle(text: &str) -> Result<SwizzleSpelling, SpellingError<'_>> {
    let t = text.trim();
    if let Some(m) = mode(t)? {
        return Ok(SwizzleSpelling::Mode(m));
    }
    match t.split_once('+') {
        None => layer(t).map(|s| SwizzleSpelling::Layers(SwizzleFn::Single(s))),
        Some((a, b)) => {
            let (a, b) = (a.trim(), b.trim());
            if a.is_empty() || b.is_empty() || b.contains('+') {
                return Err(SpellingError::Layers(t));
            }
            Ok(SwizzleSpelling::Layers(SwizzleFn::Composed(Composed::new(
                layer(a)?,
                layer(b)?,
            ))))
        }
    }
}

/// A byte mode, `Ok(None)` when `t` is not one; refuses a mode in the wrong case and an unknown `SW...`.
fn mode(t: &str) -> Result<Option<ByteMode>, SpellingError<'_>> {
    if t == "none" {
        return Ok(Some(ByteMode::None));
    }
    if let Some(m) = ByteMode::from_name(t) {
        return Ok(Some(m));
    }
    let upper_is = |name: &str| t.len() == name.len() && t.eq_ignore_ascii_case(name);
    if let Some(m) = ByteMode::ALL.into_iter().find(|m| upper_is(m.name())) {
        return Err(SpellingError::ModeCase { text: t, mode: m });
    }
    let sw = t.len() >= 2 && t.as_bytes()[..2].eq_ignore_ascii_case(b"SW");
    if sw && !t.contains(',') && !t.starts_with("Sw<") {
        return Err(SpellingError::UnknownMode(t));
    }
    Ok(None)
}

/// [`layer`] where a layer is all that is accepted (`swz check --then`): the errors name only the spellings
/// accepted here (a byte mode in any case is refused as a mode, not suggested in upper case).
///
/// ```
/// use swizzle_spec::spelling::only_layer;
/// assert!(only_layer("3,3,3").is_ok());
/// for bad in ["banana", "3,3,3+3,3,3", "SW256"] {
///     let e = only_layer(bad).unwrap_err().to_string();
///     assert!(e.starts_with("expected one layer B,M,S") && !e.contains("SW128"), "{e}");
/// }
/// assert!(only_layer("sw128").unwrap_err().to_string().contains("is a byte mode; here only B,M,S layers"));
/// ```
pub fn only_layer(text: &str) -> Result<Swizzle, SpellingError<'_>> {
    // `SW256` is no mode at all: not a layer either.
    if let Err(SpellingError::UnknownMode(t)) = mode(text.trim()) {
        return Err(SpellingError::NotALayer(t));
    }
    layer(text).map_err(|e| match e {
        SpellingError::NotASwizzle(t) | SpellingError::UnknownMode(t) => {
            SpellingError::NotALayer(t)
        }
        SpellingError::ModeCase { text, .. } => SpellingError::ModeNotALayer(text),
        e => e,
    })
}

/// One layer: `B,M,S` or `Sw<B,M,S>`, checked against the swizzle rules. A byte mode is refused here.
pub fn layer<'a>(text: &'a str) -> Result<Swizzle, SpellingError<'a>> {
    let t = text.trim();
    if mode(t).map_or(true, |m| m.is_some()) {
        return Err(match mode(t) {
            Err(e @ SpellingError::ModeCase { .. }) => e,
            _ => SpellingError::ModeNotALayer(t),
        });
    }
    let inner = t
        .strip_prefix("Sw<")
        .and_then(|r| r.strip_suffix('>'))
        .unwrap_or(t);
    let mut parts = inner.split(',').map(str::trim);
    let (Some(b), Some(m), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(SpellingError::NotASwizzle(t));
    };
    // Each field alone within the rules' span (so `M = 40` is named, not just the sum).
    let in_span = |r: Result<i64, SpellingError<'a>>, field, text| match r {
        Ok(n) if n.unsigned_abs() > crate::rules::MAX_SPAN_BITS as u64 => {
            Err(SpellingError::FieldOutOfRange { field, text })
        }
        Err(SpellingError::TooLarge { .. }) => Err(SpellingError::FieldOutOfRange { field, text }),
        r => r,
    };
    let b = in_span(decimal_u32("B", b).map(i64::from), "B", b)? as u32;
    let m = in_span(decimal_u32("M", m).map(i64::from), "M", m)? as u32;
    let s = in_span(decimal_i32("S", s).map(i64::from), "S", s)? as i32;
    crate::rules::validate(b, m, s).map_err(SpellingError::Rule)?;
    Ok(Swizzle {
        bits: b,
        base: m,
        shift: s,
    })
}

// ---- raster orders ------------------------------------------------------------------------------------------

/// One raster order: its name, the names it is also spelled with, its parameter key and that key's other
/// spellings, and how to build it.
#[derive(Clone, Copy, Debug)]
pub struct OrderSpelling {
    /// The order's canonical name (`group-m`), as `Display` prints it.
    pub name: &'static str,
    /// Other accepted names (`group_m`).
    pub aliases: &'static [&'static str],
    /// The canonical parameter key (`group`), `None` for an order without a parameter.
    pub key: Option<&'static str>,
    /// Other accepted spellings of the key (`group_m`, `group-m`).
    pub key_aliases: &'static [&'static str],
    build: fn(u32) -> Raster,
}

impl OrderSpelling {
    /// The order with parameter `p` (ignored by orders without one), its range checked.
    pub fn build(&self, p: u32) -> Result<Raster, RasterError> {
        let r = (self.build)(p);
        r.validate_params().map(|()| r)
    }

    /// True when `key` spells this order's parameter key.
    pub fn takes(&self, key: &str) -> bool {
        self.key == Some(key) || self.key_aliases.contains(&key)
    }
}

/// Every raster order, as the attribute, the CLI and `Display` spell it.
pub const ORDERS: [OrderSpelling; 7] = [
    OrderSpelling {
        name: "identity",
        aliases: &[],
        key: None,
        key_aliases: &[],
        build: |_| Raster::Identity,
    },
    OrderSpelling {
        name: "strip",
        aliases: &[],
        key: Some("tile"),
        key_aliases: &[],
        build: |tile| Raster::Strip { tile },
    },
    OrderSpelling {
        name: "cutlass",
        aliases: &[],
        key: Some("log_tile"),
        key_aliases: &["log-tile"],
        build: |log_tile| Raster::Cutlass { log_tile },
    },
    OrderSpelling {
        name: "group-m",
        aliases: &["group_m"],
        key: Some("group"),
        key_aliases: &["group_m", "group-m"],
        build: |group| Raster::GroupM { group },
    },
    OrderSpelling {
        name: "serpentine",
        aliases: &[],
        key: Some("panel"),
        key_aliases: &[],
        build: |panel| Raster::Serpentine { panel },
    },
    OrderSpelling {
        name: "morton",
        aliases: &[],
        key: None,
        key_aliases: &[],
        build: |_| Raster::Morton,
    },
    OrderSpelling {
        name: "diagonal",
        aliases: &[],
        key: None,
        key_aliases: &[],
        build: |_| Raster::Diagonal,
    },
];

/// The order named `name` (or one of its aliases).
pub fn order(name: &str) -> Result<&'static OrderSpelling, SpellingError<'_>> {
    let name = name.trim();
    ORDERS
        .iter()
        .find(|o| o.name == name || o.aliases.contains(&name))
        .ok_or(SpellingError::UnknownOrder(name))
}

/// The order whose parameter `key` spells (`tile` names strip), for a parameter given without an order.
pub fn order_of_key(key: &str) -> Option<&'static OrderSpelling> {
    ORDERS.iter().find(|o| o.takes(key))
}

/// An order and its parameter given apart (`--order strip --tile 4`, `order = strip, tile = 4`): `key` is the
/// key the parameter was given under (`None`: positional, as in `strip:4`).
pub fn raster_parts<'a>(
    name: &'a str,
    param: Option<(Option<&'a str>, u32)>,
) -> Result<Raster, SpellingError<'a>> {
    let o = order(name)?;
    match (o.key, param) {
        (None, None) => Ok((o.build)(0)),
        (Some(key), None) => Err(SpellingError::MissingParameter { order: o.name, key }),
        (takes, Some((Some(k), _))) if !o.takes(k) => Err(SpellingError::NotAParameter {
            order: o.name,
            key: k,
            takes,
        }),
        (None, Some(_)) => Err(SpellingError::NotAParameter {
            order: o.name,
            key: "a parameter",
            takes: None,
        }),
        (Some(_), Some((_, p))) => o.build(p).map_err(SpellingError::Parameter),
    }
}

/// A raster spelling: `ORDER`, `ORDER:N`, `ORDER(N)` or `ORDER(KEY=N)`.
pub fn raster(text: &str) -> Result<Raster, SpellingError<'_>> {
    let t = text.trim();
    let (name, param) = if let Some((name, rest)) = t.split_once('(') {
        let inner = rest.strip_suffix(')').ok_or(SpellingError::NotARaster(t))?;
        match inner.split_once('=') {
            Some((key, v)) => (name, Some((Some(key.trim()), v.trim()))),
            None => (name, Some((None, inner.trim()))),
        }
    } else if let Some((name, v)) = t.split_once(':') {
        (name, Some((None, v.trim())))
    } else {
        (t, None)
    };
    let name = name.trim();
    if name.is_empty() || name.contains([')', '(', ':', '=']) {
        return Err(SpellingError::NotARaster(t));
    }
    let field = order(name).ok().and_then(|o| o.key).unwrap_or("parameter");
    let param = match param {
        Some((key, v)) => Some((key, decimal_u32(field, v)?)),
        None => None,
    };
    raster_parts(name, param)
}

// ---- element types and units --------------------------------------------------------------------------------

/// An element type or one of its aliases (`fp16`, `half`, `float`, ...).
pub fn elem(name: &str) -> Result<Elem, SpellingError<'_>> {
    let t = name.trim();
    Elem::parse(t).ok_or(SpellingError::UnknownElem(t))
}

/// `bytes` (or `byte`), or an element type with its aliases.
pub fn unit(name: &str) -> Result<Unit, SpellingError<'_>> {
    let t = name.trim();
    Unit::from_name(t)
        .or_else(|| Elem::parse(t).map(Unit::Elems))
        .ok_or(SpellingError::UnknownUnit(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(s: &str) -> SwizzleFn {
        match swizzle(s) {
            Ok(SwizzleSpelling::Layers(f)) => f,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn one_spelling_table() {
        let two = SwizzleFn::Composed(Composed::new(Swizzle::new(1, 6, -2), Swizzle::new(3, 3, 5)));
        for s in [
            "1,6,-2+3,3,5",
            "Sw<1,6,-2>+Sw<3,3,5>",
            " 1, 6, -2 + Sw<3,3,5> ",
        ] {
            assert_eq!(layers(s), two, "{s}");
        }
        assert_eq!(swizzle("none"), Ok(SwizzleSpelling::Mode(ByteMode::None)));
        assert_eq!(swizzle("NONE"), Ok(SwizzleSpelling::Mode(ByteMode::None)));
        for bad in [
            "3,3,3++3,3,3",
            "3,3,3+",
            "+3,3,3",
            "3,3,3+3,3,3+3,3,3",
            "SW128+3,3,3",
            "3,3",
            "3,3,3,3",
        ] {
            assert!(swizzle(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            swizzle("sw128"),
            Err(SpellingError::ModeCase { .. })
        ));
        assert!(matches!(
            swizzle("SW256"),
            Err(SpellingError::UnknownMode(_))
        ));
        assert!(matches!(
            layer("SW128"),
            Err(SpellingError::ModeNotALayer(_))
        ));
        assert!(matches!(
            swizzle("-1,3,3"),
            Err(SpellingError::Negative { field: "B", .. })
        ));
        assert!(matches!(
            swizzle("3,3,3u8"),
            Err(SpellingError::Suffix { field: "S", .. })
        ));
        assert!(matches!(swizzle("3,3,2"), Err(SpellingError::Rule(_))));
        assert!(matches!(
            swizzle("99999999999,3,3"),
            Err(SpellingError::FieldOutOfRange { field: "B", .. })
        ));
        assert!(matches!(
            swizzle("3,40,3"),
            Err(SpellingError::FieldOutOfRange { field: "M", .. })
        ));
        assert!(matches!(
            swizzle("3,3,-2147483649"),
            Err(SpellingError::FieldOutOfRange { field: "S", .. })
        ));
    }

    #[test]
    fn raster_spellings() {
        for (s, r) in [
            ("strip:4", Raster::Strip { tile: 4 }),
            ("strip(4)", Raster::Strip { tile: 4 }),
            ("strip(tile=4)", Raster::Strip { tile: 4 }),
            ("cutlass(log-tile=2)", Raster::Cutlass { log_tile: 2 }),
            ("cutlass(log_tile=2)", Raster::Cutlass { log_tile: 2 }),
            ("group-m(group_m=8)", Raster::GroupM { group: 8 }),
            ("group_m(group=8)", Raster::GroupM { group: 8 }),
            ("group-m:8", Raster::GroupM { group: 8 }),
            ("morton", Raster::Morton),
        ] {
            assert_eq!(raster(s), Ok(r), "{s}");
            // Display reads back.
            let mut buf = [0u8; 64];
            let mut w = Buf(&mut buf, 0);
            core::fmt::write(&mut w, format_args!("{r}")).unwrap();
            let n = w.1;
            assert_eq!(raster(core::str::from_utf8(&buf[..n]).unwrap()), Ok(r));
        }
        for bad in [
            "strip",
            "strip(panel=2)",
            "morton:2",
            "strip:0",
            "cutlass:17",
            "strip:4u32",
            "zigzag",
            "strip:-1",
            ":4",
        ] {
            assert!(raster(bad).is_err(), "{bad}");
        }
        assert_eq!(
            raster_parts("cutlass", Some((Some("group"), 2))),
            Err(SpellingError::NotAParameter {
                order: "cutlass",
                key: "group",
                takes: Some("log_tile")
            })
        );
    }

    #[test]
    fn units_take_the_aliases() {
        assert_eq!(unit("fp16"), Ok(Unit::Elems(Elem::F16)));
        assert_eq!(unit("byte"), Ok(Unit::Bytes));
        assert_eq!(elem("float"), Ok(Elem::F32));
        assert!(unit("f17").is_err());
    }

    struct Buf<'a>(&'a mut [u8], usize);
    impl core::fmt::Write for Buf<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            self.0[self.1..self.1 + s.len()].copy_from_slice(s.as_bytes());
            self.1 += s.len();
            Ok(())
        }
    }
}
