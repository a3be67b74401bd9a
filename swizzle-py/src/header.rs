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
        mut slf: PyRefMut<'py, Self>,
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
        slf.0 = slf
            .0
            .clone()
            .try_swizzle_fn(&name, sw)
            .map_err(|e| err_in("swizzle", e))?;
        Ok(slf)
    }

    /// A raster struct `NAME` (`tile_of`, `launch_grid`, `here()` on the device) with the order's constants.
    fn raster<'py>(
        mut slf: PyRefMut<'py, Self>,
        name: &Bound<'py, PyAny>,
        raster: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let name = args::text("name", name)?;
        let r = match raster.cast::<PyRaster>() {
            Ok(r) => r.get().0,
            Err(_) => {
                let t = args::text("raster", raster)?;
                swizzle_core::spelling::raster(&t)
                    .map_err(|e| err_in(&format!("raster {name}"), e))?
            }
        };
        slf.0 = slf
            .0
            .clone()
            .try_raster(&name, r)
            .map_err(|e| err_in("raster", e))?;
        Ok(slf)
    }

    /// `using NAME = swz::Layout<...>;` for a shared-memory layout (an `Smem` or its spelling
    /// `"64x64:f16:3,3,3"`).
    fn layout<'py>(
        mut slf: PyRefMut<'py, Self>,
        name: &Bound<'py, PyAny>,
        layout: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let name = args::text("name", name)?;
        let smem = match layout.cast::<PySmem>() {
            Ok(s) => s.get().0,
            Err(_) => {
                let t = args::text("layout", layout)?;
                t.parse()
                    .map_err(|e: String| err_in(&format!("layout {name}"), e))?
            }
        };
        slf.0 = slf
            .0
            .clone()
            .try_layout(&name, smem)
            .map_err(|e| err_in("layout", e))?;
        Ok(slf)
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
        mut slf: PyRefMut<'py, Self>,
        guard: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let g = args::text("guard", guard)?;
        slf.0 = slf
            .0
            .clone()
            .try_guard(&g)
            .map_err(|e| err_in("guard", e))?;
        Ok(slf)
    }

    /// The whole header text.
    fn render(&self) -> String {
        self.0.render()
    }

    fn __str__(&self) -> String {
        self.0.render()
    }
}

/// The header with no named specs.
#[pyfunction]
pub fn header() -> String {
    swizzle_core::cuda::header()
}
