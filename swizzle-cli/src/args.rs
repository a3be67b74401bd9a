//! Argument parsers shared by several subcommands (one message per mistake, the same everywhere).
use gpu_kernels::Size;
use swizzle_core::scale::ScaleMode;
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::{Elem, Tile};

/// `--elem NAME`: an element type such as f16, bf16, f32, f64, u8 (`fp32`, `fp16` accepted as aliases).
pub fn parse_elem(name: &str) -> Result<Elem, String> {
    swizzle_core::spelling::elem(name).map_err(|e| format!("--elem: {e}"))
}

/// `--swizzle SPEC` (`flag` names it in errors): a byte mode or one or two `B,M,S` layers.
pub fn parse_swizzle(flag: &str, text: &str) -> Result<SwizzleSpelling, String> {
    swizzle_core::spelling::swizzle(text).map_err(|e| format!("{flag}: {e}"))
}

/// `--tile ROWSxCOLS`, e.g. `64x64`.
pub fn parse_tile_dims(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--tile: expected ROWSxCOLS (e.g. 64x64), got {text:?}");
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let dim = |field, t: &str| {
        swizzle_core::spelling::decimal_u32(field, t.trim()).map_err(|e| format!("--tile: {e}"))
    };
    Ok((dim("ROWS", r)?, dim("COLS", c)?))
}

/// `--scale MODE`: an FP8 GEMM's scaling, `tensor`, `row` or `block`.
pub fn parse_scale(s: &str) -> Result<ScaleMode, String> {
    ScaleMode::from_name(s)
        .ok_or_else(|| format!("--scale: expected tensor, row or block, got {s:?}"))
}

/// A problem `MxNxK`, e.g. `8192x8192x1024`: [`Size`]'s parser, swizzle-core's one shape parser
/// ([`swizzle_core::l2::parse_dims`]), each side `1..=`[`swizzle_core::l2::MAX_DIM`].
pub fn parse_shape(s: &str) -> Result<Size, String> {
    s.parse::<Size>().map_err(|e| e.to_string())
}

/// `--shapes` as given, each problem once (the first time it is named): a shape named twice is planned and run
/// once.
pub fn distinct(shapes: &[Size]) -> Vec<Size> {
    let mut seen = std::collections::HashSet::new();
    shapes.iter().copied().filter(|s| seen.insert(*s)).collect()
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

/// `show`, `check` and `synth` walk a tile element by element or instruction by instruction: refuse tiles that
/// could not be a block's shared memory anyway, instead of running for minutes.
pub fn fits_smem(tile: &Tile) -> Result<(), String> {
    swizzle_core::layout::tile_fits_smem(*tile)
        .map(|_| ())
        .map_err(|e| format!("--tile: {e}"))
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
        assert_eq!(
            parse_shape("8192x8192x1024"),
            Ok(Size::mnk(8192, 8192, 1024))
        );
        assert!(parse_shape("8192x8192").is_err());
        assert!(parse_shape("0x1x1").is_err());
        assert_eq!(parse_elem("f16").map(|e| e.bytes()), Ok(2));
        assert!(parse_elem("f17")
            .unwrap_err()
            .starts_with("--elem: unknown element type"));
        assert!(parse_swizzle("--swizzle", "3,3,3++3,3,3").is_err());
        for m in ScaleMode::ALL {
            assert_eq!(parse_scale(m.name()), Ok(m));
        }
        assert!(parse_scale("col")
            .unwrap_err()
            .contains("tensor, row or block"));
    }
}
