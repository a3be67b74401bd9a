//! Threadblock orders: `Raster` (`swizzle_core::raster`), spelled as `swz raster --order` spells them.
use crate::args::{self, err, err_in, uint, SwizzleError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use swizzle_core::raster::{Grid, Raster};

/// Most tiles `Raster.order` lists in one call (the bound of `swz raster` without `--limit` / `--all`).
const MAX_TILES: u64 = 1 << 20;

/// A threadblock order: which output tile the block launched `bid`-th computes. `Raster("strip:4")`,
/// `Raster("group-m", group=8)`, `Raster("cutlass(log_tile=2)")`, `Raster("morton")`.
#[pyclass(name = "Raster", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRaster(pub Raster);

/// A grid given as `(gx, gy)` or `"GXxGY"`.
pub fn grid(obj: &Bound<'_, PyAny>) -> PyResult<Grid> {
    if obj.is_instance_of::<PyString>() {
        let t = args::text("grid", obj)?;
        return t.parse().map_err(|e: String| err_in("grid", e));
    }
    let (x, y): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj
        .extract()
        .map_err(|_| PyTypeError::new_err("grid must be (gx, gy) or \"GXxGY\""))?;
    Ok(Grid::new(uint("gx", &x)?, uint("gy", &y)?))
}

impl PyRaster {
    fn checked(&self, g: Grid) -> PyResult<Grid> {
        self.0.validate(g).map_err(err)?;
        Ok(g)
    }
}

#[pymethods]
impl PyRaster {
    #[new]
    #[pyo3(signature = (order, **param))]
    fn new(order: &Bound<'_, PyAny>, param: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let order = args::text("order", order)?;
        let given: Vec<(String, Bound<'_, PyAny>)> = match param {
            Some(d) => d
                .iter()
                .map(|(k, v)| Ok((args::text("parameter", &k)?, v)))
                .collect::<PyResult<_>>()?,
            None => Vec::new(),
        };
        let r = match given.as_slice() {
            [] => swizzle_core::spelling::raster(&order),
            [(key, value)] => {
                if order.contains([':', '(']) {
                    return Err(SwizzleError::new_err(format!(
                        "order {order:?} already has a parameter; drop {key}="
                    )));
                }
                let field = swizzle_core::spelling::order(order.trim())
                    .ok()
                    .and_then(|o| o.key)
                    .unwrap_or("parameter");
                let p = uint(field, value)?;
                swizzle_core::spelling::raster_parts(order.trim(), Some((Some(key.as_str()), p)))
            }
            [(a, _), (b, _), ..] => {
                return Err(SwizzleError::new_err(format!(
                    "{a} and {b}: an order takes one parameter"
                )))
            }
        };
        r.map(PyRaster).map_err(|e| err_in("order", e))
    }

    /// The order's name (`strip`, `group-m`, ...).
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name()
    }
    /// `(key, value)` of its parameter, or None.
    #[getter]
    fn param(&self) -> Option<(&'static str, u32)> {
        self.0.param()
    }

    /// The tile `(x, y)` the block launched `bid`-th computes on `grid` (tiles), or None for an idle block.
    fn tile_of(
        &self,
        bid: &Bound<'_, PyAny>,
        grid: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(u32, u32)>> {
        let g = self.checked(self::grid(grid)?)?;
        Ok(self.0.tile_of(uint("bid", bid)?, g))
    }

    /// The launch index of the block that computes tile `(x, y)` on `grid`.
    fn bid_of(
        &self,
        x: &Bound<'_, PyAny>,
        y: &Bound<'_, PyAny>,
        grid: &Bound<'_, PyAny>,
    ) -> PyResult<u32> {
        let g = self.checked(self::grid(grid)?)?;
        let (x, y) = (uint("x", x)?, uint("y", y)?);
        if x >= g.x || y >= g.y {
            return Err(SwizzleError::new_err(format!(
                "tile ({x}, {y}) is outside the {g} grid"
            )));
        }
        Ok(self.0.bid_of(x, y, g))
    }

    /// The grid to launch (larger than the tile grid for `cutlass`, whose extra blocks idle).
    fn launch_grid(&self, grid: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
        let g = self.checked(self::grid(grid)?)?;
        let l = self.0.launch_grid(g);
        Ok((l.x, l.y))
    }

    /// Every launched block's tile, in launch order (None for an idle block): what `swz raster` prints.
    /// Refuses more than 2^20 blocks unless `limit` says how many to list.
    #[pyo3(signature = (grid, limit = None))]
    fn order(
        &self,
        grid: &Bound<'_, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Option<(u32, u32)>>> {
        let g = self.checked(self::grid(grid)?)?;
        let blocks = self.0.launch_grid(g).blocks();
        let n = match limit {
            Some(l) => blocks.min(uint("limit", l)? as u64).min(MAX_TILES),
            None if blocks > MAX_TILES => {
                return Err(SwizzleError::new_err(format!(
                    "grid {g}: {blocks} blocks, more than {MAX_TILES}; give limit=N for the first N"
                )))
            }
            None => blocks,
        };
        Ok((0..n as u32).map(|bid| self.0.tile_of(bid, g)).collect())
    }

    /// The C++ call in the generated header, e.g. `swz::raster_strip(bid, gx, gy, 4u)`.
    fn cuda_call(&self) -> String {
        self.0.cuda_call("bid", "gx", "gy")
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Raster({:?})", self.0.to_string())
    }
}

/// The raster order names `Raster` takes.
#[pyfunction]
pub fn raster_orders() -> Vec<&'static str> {
    let mut v = Vec::new();
    for r in Raster::sweep(1, 0) {
        if !v.contains(&r.name()) {
            v.push(r.name());
        }
    }
    v
}
