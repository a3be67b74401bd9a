//! Checks of `swizzle!` input. Each error is a `syn::Error` on the offending token; independent errors are
//! collected and reported together. The swizzle rules themselves come from `swizzle_spec::rules`, so the text
//! is the library's (`RuleError`'s `Display`).
use super::ast::{Args, Item};
use super::names;
use proc_macro2::Span;
use swizzle_spec::rules::{self, RuleError};
use syn::{Error, Expr, ExprLit, ExprUnary, Ident, Lit, UnOp};

/// What to generate.
pub enum Spec {
    /// `Sw<bits, base, shift>`, already checked against the rules.
    Explicit { bits: u32, base: u32, shift: i32 },
    /// A byte mode by name, optionally converted to a unit (`None`: bytes).
    Mode { mode: String, unit: Option<String> },
}

/// An integer value and the expression it came from (errors cover the whole expression, `-1` included).
struct Value<'a> {
    n: i64,
    expr: &'a Expr,
}

impl Value<'_> {
    fn error(&self, msg: impl std::fmt::Display) -> Error {
        Error::new_spanned(self.expr, msg)
    }
}

const KEYS_HELP: &str = "expected `B`, `M`, `S` (as in `swizzle!(B = 3, M = 3, S = 3)`), \
                         or `unit` after a named mode (as in `swizzle!(SW128, unit = f16)`)";

pub fn validate(args: &Args) -> syn::Result<Spec> {
    let mut errors = Errors::default();
    let mut mode: Option<&Ident> = None;
    let (mut b, mut m, mut s): (Option<Value>, Option<Value>, Option<Value>) = (None, None, None);
    let mut unit: Option<(&Ident, String)> = None;
    let mut seen: Vec<&Ident> = Vec::new();

    for (i, item) in args.items.iter().enumerate() {
        match item {
            Item::Name(name) if i == 0 => {
                if names::mode_bits(&name.to_string()).is_none() {
                    errors.push(Error::new(
                        name.span(),
                        format!(
                            "unknown swizzle mode `{name}`: expected one of {}",
                            names::list(&names::MODES)
                        ),
                    ));
                }
                mode = Some(name);
            }
            Item::Name(name) => errors.push(Error::new(
                name.span(),
                format!(
                    "expected `key = value`, found `{name}` (a named mode may only come first)"
                ),
            )),
            Item::Pair { key, value } => {
                let known = |k: &str| matches!(k, "B" | "M" | "S" | "unit");
                if let Err(e) = crate::keys::accept(key, known, KEYS_HELP, &mut seen) {
                    errors.push(e);
                    continue;
                }
                let k = key.to_string();
                match k.as_str() {
                    "unit" => match unit_name(value) {
                        Ok(u) => unit = Some((key, u)),
                        Err(e) => errors.push(e),
                    },
                    _ => match integer(value) {
                        Ok(v) => {
                            let slot = match k.as_str() {
                                "B" => &mut b,
                                "M" => &mut m,
                                _ => &mut s,
                            };
                            *slot = Some(v);
                        }
                        Err(e) => errors.push(e),
                    },
                }
            }
        }
    }
    errors.finish()?;

    if let Some(name) = mode {
        // Named form: only `unit` may follow.
        for item in &args.items {
            if let Item::Pair { key, .. } = item {
                if key != "unit" {
                    errors.push(Error::new(
                        key.span(),
                        format!("`{key}` cannot be combined with the named mode `{name}`: use either a mode or B, M, S"),
                    ));
                }
            }
        }
        errors.finish()?;
        return Ok(Spec::Mode {
            mode: name.to_string(),
            unit: unit.map(|(_, u)| u),
        });
    }

    if let Some((key, _)) = unit {
        errors.push(Error::new(
            key.span(),
            "`unit` only applies to a named byte mode (`swizzle!(SW128, unit = f16)`); with B, M, S the \
             swizzle already acts on whatever unit you count offsets in",
        ));
    }
    // One message for everything missing (`swizzle!()` is one mistake, not two).
    let (b, m) = match (b, m) {
        (Some(b), Some(m)) => (b, m),
        (b, m) => {
            let missing = match (b.is_none(), m.is_none()) {
                (true, true) => "keys `B` and `M`",
                (true, false) => "key `B`",
                _ => "key `M`",
            };
            errors.push(Error::new(
                Span::call_site(),
                format!("missing {missing}: write `swizzle!(B = .., M = .., S = ..)` or a named mode such as `swizzle!(SW128)`"),
            ));
            return Err(errors.finish().unwrap_err());
        }
    };
    let bits = non_negative(&b, "B").map_err(|e| errors.push(e)).ok();
    let base = non_negative(&m, "M").map_err(|e| errors.push(e)).ok();
    // S defaults to B, as in CuTe's `template <int BBits, int MBase, int SShift = BBits> struct Swizzle`.
    let shift = match &s {
        Some(v) => match i32::try_from(v.n) {
            Ok(sh) => Some(sh),
            Err(_) => {
                errors.push(v.error(format!("S = {} is out of range", v.n)));
                None
            }
        },
        None => bits.map(|b| b as i32),
    };
    errors.finish()?;
    let (bits, base, shift) = (bits.unwrap(), base.unwrap(), shift.unwrap());

    if let Err(e) = rules::validate(bits, base, shift) {
        let at = match e {
            // Only an explicit S can be smaller than B.
            RuleError::ShiftSmallerThanBits { .. } => s.as_ref().unwrap_or(&b),
            // Point at the largest of the three fields.
            RuleError::MaskOutOfRange { .. } => {
                let abs_s = shift.unsigned_abs();
                if bits >= base && bits >= abs_s {
                    &b
                } else if abs_s > base {
                    s.as_ref().unwrap_or(&b)
                } else {
                    &m
                }
            }
            _ => &b,
        };
        return Err(at.error(e));
    }
    Ok(Spec::Explicit { bits, base, shift })
}

fn non_negative(v: &Value, key: &str) -> syn::Result<u32> {
    if v.n < 0 {
        return Err(v.error(format!("{key} must be non-negative, found {}", v.n)));
    }
    u32::try_from(v.n).map_err(|_| v.error(format!("{key} = {} is out of range", v.n)))
}

/// An integer literal too large for any field (the rules then reject it with the real bound).
fn too_big(expr: &Expr) -> Error {
    Error::new_spanned(expr, "integer out of range: B + M + |S| must be <= 32")
}

/// An integer literal, optionally negated (`-3`). Anything else (a path, a float, an expression) is refused:
/// the macro checks the rules while expanding, so it must see the numbers.
fn integer(expr: &Expr) -> syn::Result<Value<'_>> {
    let not_int = || {
        Error::new_spanned(
            expr,
            "expected an integer literal (the macro checks the value while expanding)",
        )
    };
    // A suffixed literal (`3u8`, `3f32`) is refused by the shared spelling rules; the digits parse as everywhere.
    let value = |lit: &Lit| match crate::keys::literal_u32("the value", lit) {
        Ok(n) => Ok(n as i64),
        Err(e) if !lit_suffix(lit).is_empty() => Err(e),
        Err(_) => Err(too_big(expr)),
    };
    match expr {
        Expr::Lit(ExprLit {
            lit: lit @ (Lit::Int(_) | Lit::Float(_)),
            ..
        }) if matches!(lit, Lit::Int(_)) || !lit_suffix(lit).is_empty() => Ok(Value {
            n: value(lit)?,
            expr,
        }),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit {
                lit: lit @ (Lit::Int(_) | Lit::Float(_)),
                ..
            }) if matches!(lit, Lit::Int(_)) || !lit_suffix(lit).is_empty() => Ok(Value {
                n: -value(lit)?,
                expr,
            }),
            _ => Err(not_int()),
        },
        Expr::Group(g) => integer(&g.expr),
        Expr::Paren(p) => integer(&p.expr),
        _ => Err(not_int()),
    }
}

fn lit_suffix(lit: &Lit) -> &str {
    match lit {
        Lit::Int(i) => i.suffix(),
        Lit::Float(f) => f.suffix(),
        _ => "",
    }
}

/// A unit name: a bare identifier known to `names`.
fn unit_name(expr: &Expr) -> syn::Result<String> {
    let help = || {
        format!(
            "expected `{}` or one of {}",
            names::BYTES,
            names::list(&names::ELEMS)
        )
    };
    let ident = match expr {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
        Expr::Group(g) => return unit_name(&g.expr),
        _ => None,
    };
    let Some(ident) = ident else {
        return Err(Error::new_spanned(
            expr,
            format!("expected a unit name: {}", help()),
        ));
    };
    let name = ident.to_string();
    if names::unit_log2_bytes(&name).is_none() {
        return Err(Error::new_spanned(
            expr,
            format!("unknown unit `{name}`: {}", help()),
        ));
    }
    Ok(name)
}

/// Errors collected and combined into one `syn::Error`.
#[derive(Default)]
struct Errors(Option<Error>);

impl Errors {
    fn push(&mut self, e: Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    fn finish(&mut self) -> syn::Result<()> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Extend<Error> for Errors {
    fn extend<I: IntoIterator<Item = Error>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}
