//! The generated CUDA / C++17 header (`swizzle_core::cuda::Header`), with named specs.
use crate::args::{self, err_in, SwizzleError};
use crate::check::PySmem;
use crate::raster::PyRaster;
use crate::wgmma::PyOperandTile;
use pyo3::prelude::*;
use swizzle_core::cuda::Header;
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::{ByteMode, Swizzle, SwizzleFn};

/// A header with named specs, built step by step; `render()` is the text (`swz emit-header`'s output for the
/// same specs), to write where the kernel build reads it (`pathlib.Path("swz.cuh").write_text(h.render())`).
/// Every method returns the header, so calls chain:
///
///     swz.Header().swizzle("SmemA", "3,3,3").raster("GemmOrder", "strip:4").render()
#[pyclass(name = "Header", module = "swz")]
#[derive(Clone, Default)]
pub struct PyHeader(Header);

#[pymethods]
impl PyHeader {
    #[new]
    fn new() -> Self {
        PyHeader(Header::new())
    }

    /// `using NAME = swz::Swizzle<B, M, S>;` (or `swz::Compose<...>` for two layers). A byte mode (`"SW128"`)
    /// needs `unit`: `"bytes"` or the element type the kernel indexes with.
    #[pyo3(signature = (name, swizzle, unit = None))]
    fn swizzle<'py>(
        slf: PyRefMut<'py, Self>,
        name: &Bound<'py, PyAny>,
        swizzle: &Bound<'py, PyAny>,
        unit: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let name = args::text("name", name)?;
        let unit = unit.map(args::unit).transpose()?;
        let sw = match (args::swizzle_spelling("swizzle", swizzle)?, unit) {
            (SwizzleSpelling::Layers(f), _) => f,
            (SwizzleSpelling::Mode(ByteMode::None), _) => SwizzleFn::Single(Swizzle::IDENTITY),
            (SwizzleSpelling::Mode(m), Some(u)) => SwizzleFn::Single(m.swizzle_for(u)),
            (SwizzleSpelling::Mode(m), None) => {
                return Err(SwizzleError::new_err(format!(
                    "swizzle {name}={m}: a byte mode acts on byte addresses; say what the kernel indexes with \
                     unit=\"bytes\" (emits {} on bytes) or unit=\"f16\"/\"f32\"/... (element offsets), or add a \
                     whole layout with layout()",
                    m.swizzle()
                )))
            }
        };
        Self::then(slf, "swizzle", |h| h.try_swizzle_fn(&name, sw))
    }

    /// A raster struct `NAME` (`tile_of`, `launch_grid`, `here()` on the device) with the order's constants.
    fn raster<'py>(
        slf: PyRefMut<'py, Self>,
        name: &Bound<'py, PyAny>,
        raster: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let name = args::text("name", name)?;
        let r = value_or_spelling(
            raster,
            "raster",
            &name,
            |r: &PyRaster| r.0,
            |t| swizzle_core::spelling::raster(t).map_err(|e| e.to_string()),
        )?;
        Self::then(slf, "raster", |h| h.try_raster(&name, r))
    }

    /// `using NAME = swz::Layout<...>;` for a shared-memory layout (an `Smem` or its spelling
    /// `"64x64:f16:3,3,3"`).
    fn layout<'py>(
        slf: PyRefMut<'py, Self>,
        name: &Bound<'py, PyAny>,
        layout: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let name = args::text("name", name)?;
        let smem = value_or_spelling(
            layout,
            "layout",
            &name,
            |s: &PySmem| s.0,
            |t| t.parse::<swizzle_core::layout::Smem>(),
        )?;
        Self::then(slf, "layout", |h| h.try_layout(&name, smem))
    }

    /// A Hopper operand tile's struct `NAME`: TMA box and swizzle, wgmma descriptor, alignment.
    fn operand<'py>(
        mut slf: PyRefMut<'py, Self>,
        name: &Bound<'py, PyAny>,
        tile: PyRef<'py, PyOperandTile>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let name = args::text("name", name)?;
        // The same name checks as every other spec (`wgmma_operand` would panic on a bad name).
        let probe = slf
            .0
            .clone()
            .try_swizzle(&name, Swizzle::IDENTITY)
            .map_err(|e| err_in("operand", e));
        probe?;
        tile.0
            .validate()
            .map_err(|e| err_in(&format!("operand {name}"), e))?;
        slf.0 = slf.0.clone().wgmma_operand(&name, tile.0);
        Ok(slf)
    }

    /// The include guard of the named specs (default: derived from their text).
    fn guard<'py>(
        slf: PyRefMut<'py, Self>,
        guard: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let g = args::text("guard", guard)?;
        Self::then(slf, "guard", |h| h.try_guard(&g))
    }

    /// The whole header text.
    fn render(&self) -> String {
        self.0.render()
    }

    fn __str__(&self) -> String {
        self.0.render()
    }
}

impl PyHeader {
    /// The header with `add` applied: `add` returns the new header or the reason it refuses, raised as a
    /// `SwizzleError` prefixed with `what` (the method's name).
    fn then<'py, E: std::fmt::Display>(
        mut slf: PyRefMut<'py, Self>,
        what: &str,
        add: impl FnOnce(Header) -> Result<Header, E>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        slf.0 = add(slf.0.clone()).map_err(|e| err_in(what, e))?;
        Ok(slf)
    }
}

/// The core value of argument `field` for spec `name`: read by `core` from a `T` (`swz.Raster`, `swz.Smem`), or
/// its spelling (a `str`) parsed by `parse`, a refusal raised as `"FIELD NAME: reason"`.
fn value_or_spelling<T, V>(
    obj: &Bound<'_, PyAny>,
    field: &str,
    name: &str,
    core: impl FnOnce(&T) -> V,
    parse: impl FnOnce(&str) -> Result<V, String>,
) -> PyResult<V>
where
    T: pyo3::PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync,
{
    match obj.cast::<T>() {
        Ok(v) => Ok(core(v.get())),
        Err(_) => {
            parse(&args::text(field, obj)?).map_err(|e| err_in(&format!("{field} {name}"), e))
        }
    }
}

/// The header with no named specs.
#[pyfunction]
pub fn header() -> String {
    swizzle_core::cuda::header()
}
