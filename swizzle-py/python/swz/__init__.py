"""GPU shared-memory swizzles as checked specs, from Python.

One spec, ``Swizzle(3, 3, 3)``, and everything built from it, computed by the same Rust library as the ``swz``
command line and the Rust crates (``swizzle-core``):

- specs and conversions: :class:`Swizzle` (CuTe's ``Swizzle<B, M, S>``), :class:`Composed` (two layers), TMA byte
  modes with a unit (``Swizzle.mode("SW128", unit="f16")``), Triton's ``vec / perPhase / maxPhase``, absolute
  field positions;
- ``apply`` on ints and on NumPy integer arrays;
- layouts and the bank checker: :class:`Smem`, :func:`check` (the report ``swz check`` prints), :func:`wavefronts`
  (one warp instruction), :func:`synth` (the smallest conflict-free swizzle);
- threadblock orders: :class:`Raster`;
- the CUDA / C++17 header: :class:`Header`, :func:`header`;
- Hopper operand tiles: :class:`OperandTile` (TMA box, wgmma descriptor), :func:`encode_descriptor`,
  :func:`decode_descriptor`.

Bad input raises :class:`SwizzleError` (a ``ValueError``) with the one-line reason ``swz`` prints, or ``TypeError``
for a value of the wrong type.

>>> import swz
>>> swz.Swizzle(3, 3, 3).apply(64)
72
>>> swz.Swizzle.mode("SW128", unit="f16")
Swizzle(3, 3, 3)
"""

from ._swz import (
    BankReport,
    CheckReport,
    Composed,
    Header,
    OperandTile,
    PatternReport,
    Raster,
    Smem,
    Swizzle,
    SwizzleError,
    Synthesis,
    __version__,
    check,
    decode_descriptor,
    encode_descriptor,
    header,
    op_names,
    pattern_names,
    raster_orders,
    synth,
    tma_modes,
    wavefronts,
)

__all__ = [
    "BankReport",
    "CheckReport",
    "Composed",
    "Header",
    "OperandTile",
    "PatternReport",
    "Raster",
    "Smem",
    "Swizzle",
    "SwizzleError",
    "Synthesis",
    "__version__",
    "check",
    "decode_descriptor",
    "encode_descriptor",
    "header",
    "op_names",
    "pattern_names",
    "raster_orders",
    "synth",
    "tma_modes",
    "wavefronts",
]
