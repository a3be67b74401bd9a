//! Checks of `#[raster(...)]` input. Each error is a `syn::Error` on the offending token; independent errors are
//! collected and reported together. Parameter ranges come from `swizzle_spec::raster` (`validate_params`), so the
//! text is the library's (`RasterError`'s `Display`).
use super::ast::{Args, Pair};
use super::spec::Raster;
use proc_macro2::Span;
use syn::{BinOp, Error, Expr, ExprBinary, ExprLit, ExprUnary, Ident, Lit, UnOp};

/// Orders as the attribute spells them (the CLI's and `Display`'s names), and the parameter key each takes.
const ORDERS: [(&str, Option<&str>); 7] = [
    ("identity", None),
    ("strip", Some("tile")),
    ("cutlass", Some("log_tile")),
    ("group-m", Some("group")),
    ("serpentine", Some("panel")),
    ("morton", None),
    ("diagonal", None),
];
const PARAM_KEYS: [&str; 4] = ["tile", "log_tile", "group", "panel"];
const KEYS_HELP: &str = "expected one of `order`, `tile`, `log_tile`, `group`, `panel`";
const ORDERS_HELP: &str =
    "expected one of `identity`, `strip`, `cutlass`, `group-m`, `serpentine`, `morton`, `diagonal`";

/// A parameter key as documented: `group_m` (the attribute's former spelling) is accepted for `group`.
fn canonical_key(key: &str) -> &str {
    match key {
        "group_m" => "group",
        k => k,
    }
}

pub fn validate(args: &Args) -> syn::Result<Raster> {
    let mut errors: Vec<Error> = Vec::new();
    let mut seen: Vec<&Ident> = Vec::new();
    let mut seen_params: Vec<&str> = Vec::new();
    let mut order: Option<(&Expr, &'static str, Option<&'static str>)> = None; // (value, name, param key)
    let mut params: Vec<(&Ident, &Expr, u32)> = Vec::new(); // (key, value, parsed)

    for Pair { key, value } in &args.items {
        let known = |k: &str| k == "order" || PARAM_KEYS.contains(&canonical_key(k));
        if let Err(e) = crate::keys::accept(key, known, KEYS_HELP, &mut seen) {
            errors.push(e);
            continue;
        }
        let k = key.to_string();
        if k == "order" {
            match order_name(value) {
                Ok((name, wanted)) => order = Some((value, name, wanted)),
                Err(e) => errors.push(e),
            }
            continue;
        }
        let canon = PARAM_KEYS
            .into_iter()
            .find(|p| *p == canonical_key(&k))
            .unwrap();
        if seen_params.contains(&canon) {
            errors.push(Error::new(
                key.span(),
                format!("duplicate key `{k}` (`group_m` is `group`)"),
            ));
            continue;
        }
        seen_params.push(canon);
        match integer(value) {
            Ok(n) => params.push((key, value, n)),
            Err(e) => errors.push(e),
        }
    }
    // One mistake, one message: once something is wrong, nothing is inferred from what is left (an unknown order
    // or key must not also read as "no order").
    if !errors.is_empty() {
        return Err(combine(errors));
    }

    // Which order: the explicit one, else the one named by the (single) parameter key.
    let (name, wanted) = match order {
        Some((_, name, wanted)) => (name, wanted),
        None => match params.first() {
            Some((key, ..)) => {
                let k = key.to_string();
                let (name, wanted) = ORDERS
                    .iter()
                    .find(|(_, p)| *p == Some(canonical_key(&k)))
                    .unwrap();
                (*name, *wanted)
            }
            None => {
                return Err(Error::new(
                    Span::call_site(),
                    "#[raster] needs an order: `#[raster(order = diagonal)]`, or a parameter such as \
                     `#[raster(tile = 4)]` (strip)",
                ));
            }
        },
    };

    let mut value: Option<(&Expr, u32)> = None;
    for &(key, expr, n) in &params {
        if Some(canonical_key(&key.to_string())) == wanted {
            value = Some((expr, n));
            continue;
        }
        let msg = match (order, wanted) {
            (None, _) => format!(
                "`{key}` conflicts with `{}`: each order takes one parameter (add `order = ...` to choose)",
                params[0].0
            ),
            (Some(_), Some(w)) => format!("`{key}` is not a parameter of `{name}` (it takes `{w}`)"),
            (Some(_), None) => format!("`{key}` is not a parameter of `{name}` (it takes none)"),
        };
        errors.push(Error::new(key.span(), msg));
    }
    if let (Some((order_value, ..)), Some(w), None) = (order, wanted, value) {
        if errors.is_empty() {
            errors.push(Error::new_spanned(
                order_value,
                format!("`{name}` needs `{w} = N`"),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(combine(errors));
    }

    let p = value.map_or(0, |(_, n)| n);
    let raster = match name {
        "identity" => Raster::Identity,
        "strip" => Raster::Strip { tile: p },
        "cutlass" => Raster::Cutlass { log_tile: p },
        "group-m" => Raster::GroupM { group: p },
        "serpentine" => Raster::Serpentine { panel: p },
        "morton" => Raster::Morton,
        _ => Raster::Diagonal,
    };
    match (raster.validate_params(), value) {
        (Err(e), Some((expr, _))) => Err(Error::new_spanned(expr, e.to_string())),
        _ => Ok(raster),
    }
}

fn combine(errors: Vec<Error>) -> Error {
    let mut it = errors.into_iter();
    let mut first = it.next().expect("at least one error");
    it.for_each(|e| first.combine(e));
    first
}

/// `order = strip`: a bare identifier naming an order. `group-m` (tokens `group - m`) and `group_m` both name
/// `group-m`.
fn order_name(value: &Expr) -> syn::Result<(&'static str, Option<&'static str>)> {
    let ident = |e: &Expr| match e {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(Ident::to_string),
        _ => None,
    };
    let name = match value {
        Expr::Binary(ExprBinary {
            left,
            op: BinOp::Sub(_),
            right,
            ..
        }) => match (ident(left), ident(right)) {
            (Some(l), Some(r)) => Some(format!("{l}-{r}")),
            _ => None,
        },
        e => ident(e).map(|n| if n == "group_m" { "group-m".into() } else { n }),
    };
    let Some(name) = name else {
        return Err(Error::new_spanned(
            value,
            format!("expected an order name: {ORDERS_HELP}"),
        ));
    };
    match ORDERS.iter().find(|(n, _)| *n == name) {
        Some(&(name, wanted)) => Ok((name, wanted)),
        None => Err(Error::new_spanned(
            value,
            format!("unknown order `{name}`: {ORDERS_HELP}"),
        )),
    }
}

/// A non-negative integer literal that fits in `u32`.
fn integer(value: &Expr) -> syn::Result<u32> {
    match value {
        Expr::Lit(ExprLit {
            lit: lit @ Lit::Int(i),
            ..
        }) => match crate::keys::literal_u32("the parameter", lit) {
            Err(e) if !i.suffix().is_empty() => Err(e),
            r => r.map_err(|_| Error::new(i.span(), format!("`{i}` does not fit in a u32"))),
        },
        Expr::Lit(ExprLit {
            lit: lit @ Lit::Float(f),
            ..
        }) if !f.suffix().is_empty() => {
            Err(crate::keys::literal_u32("the parameter", lit).unwrap_err())
        }
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => Err(Error::new_spanned(
            value,
            format!(
                "expected a non-negative integer, found `-{}`",
                quote::ToTokens::to_token_stream(expr)
            ),
        )),
        _ => Err(Error::new_spanned(
            value,
            "expected a non-negative integer literal, as in `tile = 4`",
        )),
    }
}
