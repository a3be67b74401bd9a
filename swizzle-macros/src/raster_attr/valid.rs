//! Checks of `#[raster(...)]` input. Each error is a `syn::Error` on the offending token; independent errors are
//! collected and reported together. Parameter ranges come from the shared `raster.rs` (`validate_params`), so the
//! text is the library's (`RasterError`'s `Display`).
use super::ast::{Args, Pair};
use super::spec::Raster;
use proc_macro2::Span;
use syn::{Error, Expr, ExprLit, ExprUnary, Ident, Lit, UnOp};

/// Orders as the attribute spells them, and the parameter key each takes.
const ORDERS: [(&str, Option<&str>); 7] = [
    ("identity", None),
    ("strip", Some("tile")),
    ("cutlass", Some("log_tile")),
    ("group_m", Some("group_m")),
    ("serpentine", Some("panel")),
    ("morton", None),
    ("diagonal", None),
];
const PARAM_KEYS: [&str; 4] = ["tile", "log_tile", "group_m", "panel"];
const KEYS_HELP: &str = "expected one of `order`, `tile`, `log_tile`, `group_m`, `panel`";
const ORDERS_HELP: &str =
    "expected one of `identity`, `strip`, `cutlass`, `group_m`, `serpentine`, `morton`, `diagonal`";

pub fn validate(args: &Args) -> syn::Result<Raster> {
    let mut errors: Vec<Error> = Vec::new();
    let mut seen: Vec<&Ident> = Vec::new();
    let mut order: Option<(&Ident, &'static str, Option<&'static str>)> = None; // (value token, name, param key)
    let mut params: Vec<(&Ident, &Expr, Option<u32>)> = Vec::new(); // (key, value, parsed)

    for Pair { key, value } in &args.pairs {
        let known = |k: &str| k == "order" || PARAM_KEYS.contains(&k);
        if let Err(e) = crate::keys::accept(key, known, KEYS_HELP, &mut seen) {
            errors.push(e);
            continue;
        }
        let k = key.to_string();
        if k == "order" {
            match order_name(value) {
                Ok(o) => order = Some(o),
                Err(e) => errors.push(e),
            }
        } else {
            match integer(value) {
                Ok(n) => params.push((key, value, Some(n))),
                Err(e) => {
                    errors.push(e);
                    params.push((key, value, None));
                }
            }
        }
    }

    // Which order: the explicit one, else the one named by the (single) parameter key.
    let (name, wanted) = match order {
        Some((_, name, wanted)) => (name, wanted),
        None => match params.first() {
            Some((key, ..)) => {
                let (name, wanted) = ORDERS
                    .iter()
                    .find(|(_, p)| *p == Some(key.to_string().as_str()))
                    .unwrap();
                (*name, *wanted)
            }
            None => {
                errors.push(Error::new(
                    Span::call_site(),
                    "#[raster] needs an order: `#[raster(order = diagonal)]`, or a parameter such as \
                     `#[raster(tile = 4)]` (strip)",
                ));
                return Err(combine(errors));
            }
        },
    };

    let mut value: Option<(&Expr, u32)> = None;
    for &(key, expr, n) in &params {
        if Some(key.to_string().as_str()) == wanted {
            value = n.map(|n| (expr, n));
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
    if let (Some((order_token, ..)), Some(w)) = (order, wanted) {
        if !params.iter().any(|(k, ..)| *k == w) {
            errors.push(Error::new(
                order_token.span(),
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
        "group_m" => Raster::GroupM { group: p },
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

/// `order = strip`: a bare identifier naming an order.
fn order_name(value: &Expr) -> syn::Result<(&Ident, &'static str, Option<&'static str>)> {
    let ident = match value {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident(),
        _ => None,
    };
    let Some(ident) = ident else {
        return Err(Error::new_spanned(
            value,
            format!("expected an order name: {ORDERS_HELP}"),
        ));
    };
    match ORDERS.iter().find(|(n, _)| ident == n) {
        Some(&(name, wanted)) => Ok((ident, name, wanted)),
        None => Err(Error::new(
            ident.span(),
            format!("unknown order `{ident}`: {ORDERS_HELP}"),
        )),
    }
}

/// A non-negative integer literal that fits in `u32`.
fn integer(value: &Expr) -> syn::Result<u32> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i
            .base10_parse::<u32>()
            .map_err(|_| Error::new(i.span(), format!("`{i}` does not fit in a u32"))),
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
