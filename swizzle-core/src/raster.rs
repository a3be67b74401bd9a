//! Threadblock orders (rasters). Owned by the raster work; placeholder until it lands.
