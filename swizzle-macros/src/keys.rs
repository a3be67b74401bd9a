//! `key = value` bookkeeping shared by `swizzle!` and `#[raster]`: the unknown-key and duplicate-key errors, with
//! the same wording and a span on the key.
use syn::{Error, Ident, Lit};

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

/// The digits of an integer literal, through the spelling rules every entry point shares: a literal with a type
/// suffix (`3u8`, `3i64`, `3f32`) is refused on the literal, the digits are parsed as the CLI parses them.
pub fn literal_u32(field: &'static str, lit: &Lit) -> Result<u32, Error> {
    use swizzle_spec::spelling::{decimal_u32, SpellingError};
    let (suffix, digits) = match lit {
        Lit::Int(i) => (i.suffix(), i.base10_digits()),
        Lit::Float(f) => (f.suffix(), f.base10_digits()),
        _ => ("", ""),
    };
    if !suffix.is_empty() {
        let text = lit_text(lit);
        return Err(Error::new(
            lit.span(),
            SpellingError::Suffix { field, text: &text }.to_string(),
        ));
    }
    decimal_u32(field, digits).map_err(|e| Error::new(lit.span(), e.to_string()))
}

fn lit_text(lit: &Lit) -> String {
    quote::ToTokens::to_token_stream(lit).to_string()
}
