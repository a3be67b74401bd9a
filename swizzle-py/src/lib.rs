//! `swz`, the Python package: swizzle-core's specs, conversions, bank checker, synthesis, rasters, header and
//! wgmma/TMA descriptor math, the sm_90 / sm_100 descriptor decoders and checks, with the CLI's one-line error messages as `swz.SwizzleError`. Each module wraps one
//! job of the core and computes nothing of its own.
#![forbid(unsafe_code)]

mod args;
mod check;
mod descriptor;
mod header;
mod raster;
mod spec;
mod wgmma;

use pyo3::prelude::*;

/// The extension module: every class and function of the modules above, the error type and the version.
#[pymodule]
mod _swz {
    #[pymodule_export]
    use super::check::{
        check, op_names, pattern_names, synth, wavefronts, BankReport, CheckReport,
        PyPatternReport, PySmem, PySynthesis,
    };
    #[pymodule_export]
    use super::descriptor::{
        check_desc, check_idesc, check_tma, LayoutCheck, PyDescriptor, PyInstrDesc,
    };
    #[pymodule_export]
    use super::header::{header, PyHeader};
    #[pymodule_export]
    use super::raster::{raster_orders, PyRaster};
    #[pymodule_export]
    use super::spec::{tma_modes, PyComposed, PySwizzle};
    #[pymodule_export]
    use super::wgmma::{decode_descriptor, encode_descriptor, PyOperandTile};
    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add(
            "SwizzleError",
            m.py().get_type::<super::args::SwizzleError>(),
        )?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
