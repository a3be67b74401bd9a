//! `key = value` bookkeeping shared by `swizzle!` and `#[raster]`: the unknown-key and duplicate-key errors, with
//! the same wording and a span on the key.
use syn::{Error, Ident};

/// Accepts `key` if `known(key)` and it was not given before (recording it in `seen`); otherwise the error, on the
/// key. `help` lists the accepted keys.
pub fn accept<'a>(
    key: &'a Ident,
    known: impl Fn(&str) -> bool,
    help: &str,
    seen: &mut Vec<&'a Ident>,
) -> Result<(), Error> {
    let k = key.to_string();
    if !known(&k) {
        // `b = 3` for `B = 3`: say so rather than list the keys.
        let upper = k.to_uppercase();
        if upper != k && known(&upper) {
            return Err(Error::new(
                key.span(),
                format!("unknown key `{k}`: keys are case-sensitive, write `{upper}`"),
            ));
        }
        return Err(Error::new(key.span(), format!("unknown key `{k}`: {help}")));
    }
    if seen.contains(&key) {
        return Err(Error::new(key.span(), format!("duplicate key `{k}`")));
    }
    seen.push(key);
    Ok(())
}
