//! Python values in, core values out: every argument goes through the same spelling functions as `swz`'s flags,
//! so a value is refused with the same one-line reason (prefixed with the parameter's name, as the CLI prefixes
//! the flag's).
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};
use swizzle_core::spelling::{self, SwizzleSpelling};
use swizzle_core::wgmma::Major;
use swizzle_core::{Composed, Elem, Swizzle, SwizzleFn, Unit};

pyo3::create_exception!(
    swz,
    SwizzleError,
    PyValueError,
    "A spec, layout, pattern or parameter that swizzle refuses; the message is the one-line reason `swz` prints."
);

/// A refused value: `SwizzleError` with the core's message.
pub fn err(e: impl std::fmt::Display) -> PyErr {
    SwizzleError::new_err(e.to_string())
}

/// A refused value of parameter `param`: `"param: reason"`.
pub fn err_in(param: &str, e: impl std::fmt::Display) -> PyErr {
    SwizzleError::new_err(format!("{param}: {e}"))
}

/// The decimal text of a Python integer (an `int` or anything with `__index__`, such as a NumPy integer), never
/// a `bool`: what `swz` would have read for it, so the same parser gives the same verdict and reason.
pub fn int_text(field: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let not_int = || {
        PyTypeError::new_err(format!(
            "{field} must be an integer, got {}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyString>() {
        return Err(not_int());
    }
    let index = obj
        .py()
        .import("operator")?
        .getattr("index")?
        .call1((obj,))
        .map_err(|_| not_int())?;
    if let Ok(v) = index.extract::<i128>() {
        return Ok(v.to_string());
    }
    // Past 128 bits: Python's own decimal text (which it refuses past 4300 digits).
    index
        .str()
        .and_then(|t| t.extract::<String>())
        .map_err(|_| {
            SwizzleError::new_err(format!(
                "{field} is out of range (an integer of thousands of digits)"
            ))
        })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an object".into())
}

/// A non-negative integer that fits in `u32`, checked by `swz`'s number parser (`field` names it).
pub fn uint(field: &'static str, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    let text = int_text(field, obj)?;
    spelling::decimal_u32(field, &text).map_err(err)
}

/// A string argument (`TypeError` otherwise).
pub fn text(field: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if !obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{field} must be a str, got {}",
            type_name(obj)
        )));
    }
    obj.extract::<String>().map_err(|_| {
        SwizzleError::new_err(format!(
            "{field}: not valid Unicode text (a lone surrogate)"
        ))
    })
}

/// An element type name (`f16`, `bf16`, `fp32`, ...).
pub fn elem(obj: &Bound<'_, PyAny>) -> PyResult<Elem> {
    let t = text("elem", obj)?;
    spelling::elem(&t).map_err(|e| err_in("elem", e))
}

/// An element type name given as parameter `param` (`dtype`, ...).
pub fn elem_named(param: &str, obj: &Bound<'_, PyAny>) -> PyResult<Elem> {
    let t = text(param, obj)?;
    spelling::elem(&t).map_err(|e| err_in(param, e))
}

/// An operand's major: `"K"` (K contiguous) or `"MN"` (also `"k"`, `"mn"`, `"M"`, `"N"`).
pub fn major(obj: &Bound<'_, PyAny>) -> PyResult<Major> {
    match text("major", obj)?.as_str() {
        "K" | "k" => Ok(Major::K),
        "MN" | "mn" | "M" | "N" => Ok(Major::MN),
        other => Err(SwizzleError::new_err(format!(
            "major: {other:?} is not K or MN"
        ))),
    }
}

/// A unit name (`bytes` or an element type).
pub fn unit(obj: &Bound<'_, PyAny>) -> PyResult<Unit> {
    let t = text("unit", obj)?;
    spelling::unit(&t).map_err(|e| err_in("unit", e))
}

/// A swizzle given as a `Swizzle`, a `Composed` or a spelling (`"3,3,3"`, `"Sw<3,3,3>"`, `"SW128"`, two layers).
pub fn swizzle_spelling(param: &str, obj: &Bound<'_, PyAny>) -> PyResult<SwizzleSpelling> {
    if let Ok(s) = obj.cast::<crate::spec::PySwizzle>() {
        return Ok(SwizzleSpelling::Layers(SwizzleFn::Single(s.get().0)));
    }
    if let Ok(c) = obj.cast::<crate::spec::PyComposed>() {
        return Ok(SwizzleSpelling::Layers(SwizzleFn::Composed(c.get().0)));
    }
    if !obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{param} must be a Swizzle, a Composed or a spelling such as \"3,3,3\" or \"SW128\", got {}",
            type_name(obj)
        )));
    }
    let t = text(param, obj)?;
    spelling::swizzle(&t).map_err(|e| err_in(param, e))
}

/// A swizzle `Sw<B,M,S>` from the three integers' decimal texts, through the parser of the spelling `"B,M,S"`:
/// the same verdict and reason as `swz --swizzle B,M,S`.
pub fn layer(b: &str, m: &str, s: &str) -> PyResult<Swizzle> {
    let t = format!("{b},{m},{s}");
    spelling::layer(&t).map_err(err)
}

/// One or two layers as a Python object.
pub fn swizzle_fn_object(py: Python<'_>, f: SwizzleFn) -> PyResult<Py<PyAny>> {
    Ok(match f {
        SwizzleFn::Single(s) => Py::new(py, crate::spec::PySwizzle(s))?.into_any(),
        SwizzleFn::Composed(c) => Py::new(py, crate::spec::PyComposed(c))?.into_any(),
    })
}

/// Two layers, for `Composed(first, second)`.
pub fn composed(first: Swizzle, second: Swizzle) -> Composed {
    Composed::new(first, second)
}
