//! Argument parsers shared by several subcommands (one message per mistake, the same everywhere).
use swizzle_core::tile::MAX_SMEM_BYTES;
use swizzle_core::{Elem, Tile};

/// An element or unit name with the aliases `Elem::parse` takes (`fp32` -> `f32`); anything else unchanged.
pub fn canonical_elem(name: &str) -> String {
    Elem::parse(name.trim()).map_or_else(|| name.trim().to_string(), |e| e.name().to_string())
}

/// `--elem NAME`: an element type such as f16, bf16, f32, f64, u8 (`fp32`, `fp16` accepted as aliases).
pub fn parse_elem(name: &str) -> Result<Elem, String> {
    Elem::parse(name).ok_or_else(|| {
        format!("--elem: unknown element type {name:?} (try f16, bf16, f32, f64, u8)")
    })
}

/// `--tile ROWSxCOLS`, e.g. `64x64`.
pub fn parse_tile_dims(text: &str) -> Result<(u32, u32), String> {
    text.split_once(['x', 'X'])
        .and_then(|(r, c)| Some((r.trim().parse::<u32>().ok()?, c.trim().parse::<u32>().ok()?)))
        .ok_or_else(|| format!("--tile: expected ROWSxCOLS (e.g. 64x64), got {text:?}"))
}

/// A problem `MxNxK`, e.g. `8192x8192x1024` (each positive).
pub fn parse_shape(s: &str) -> Result<(u32, u32, u32), String> {
    let d: Vec<u32> = s
        .split(['x', 'X'])
        .map(|x| x.trim().parse().ok().filter(|&v| v > 0))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("expected MxNxK (positive integers), got {s:?}"))?;
    match d[..] {
        [m, n, k] => Ok((m, n, k)),
        _ => Err(format!("expected MxNxK, got {s:?}")),
    }
}

/// A byte count (`--pad`): a non-negative integer. Negative numbers reach this parser (`allow_hyphen_values`) so
/// the message is about the value, not an "unexpected argument '-1'".
pub fn parse_bytes(text: &str) -> Result<u32, String> {
    match text.trim().parse::<i64>() {
        Ok(n) if n < 0 => Err(format!("expected a byte count >= 0, got {n}")),
        Ok(n) => u32::try_from(n).map_err(|_| format!("{n} bytes is out of range")),
        Err(_) => Err(format!(
            "expected a byte count (an integer >= 0), got {text:?}"
        )),
    }
}

/// Write `text` to `path` through a temporary file beside it (so a reader never sees half a file); errors name
/// `flag` and the user's path, never the temporary one, and the temporary file is removed.
pub fn write_file(flag: &str, path: &std::path::Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("swz-tmp");
    let result = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{flag}: cannot write {}: {e}", path.display())
    })
}

/// `show`, `check` and `synth` walk a tile element by element or instruction by instruction: refuse tiles that
/// could not be a block's shared memory anyway, instead of running for minutes.
pub fn fits_smem(tile: &Tile) -> Result<(), String> {
    if tile.bytes() > MAX_SMEM_BYTES {
        return Err(format!(
            "--tile: {}x{} {} is {} bytes; one block's shared memory holds at most {MAX_SMEM_BYTES} (227 KiB on sm_90)",
            tile.rows,
            tile.cols,
            tile.elem.name(),
            tile.bytes()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!(parse_tile_dims("64x32"), Ok((64, 32)));
        assert_eq!(parse_tile_dims(" 8 X 64"), Ok((8, 64)));
        assert!(parse_tile_dims("64").is_err());
        assert!(parse_tile_dims("-1x4").is_err());
        assert_eq!(parse_shape("8192x8192x1024"), Ok((8192, 8192, 1024)));
        assert!(parse_shape("8192x8192").is_err());
        assert!(parse_shape("0x1x1").is_err());
        assert_eq!(parse_elem("f16").map(|e| e.bytes()), Ok(2));
        assert!(parse_elem("f17")
            .unwrap_err()
            .starts_with("--elem: unknown element type"));
    }
}
