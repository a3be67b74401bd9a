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
  :func:`decode_descriptor`;
- the descriptors a kernel builds, decoded and checked against the operand it means (what ``swz decode desc|idesc``
  and ``swz check desc|tma|idesc`` do): :class:`Descriptor` (the shared-memory descriptor of sm_90 ``wgmma`` and
  sm_100 ``tcgen05.mma``), :class:`InstrDesc` (the tcgen05 instruction descriptor), :func:`check_desc`,
  :func:`check_tma` (``cuTensorMapEncodeTiled``'s arguments), :func:`check_idesc`; each check returns a
  :class:`LayoutCheck` naming every mismatch.

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
    Descriptor,
    Header,
    InstrDesc,
    LayoutCheck,
    OperandTile,
    PatternReport,
    Raster,
    Smem,
    Swizzle,
    SwizzleError,
    Synthesis,
    __version__,
    check,
    check_desc,
    check_idesc,
    check_tma,
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
    "Descriptor",
    "Header",
    "InstrDesc",
    "LayoutCheck",
    "OperandTile",
    "PatternReport",
    "Raster",
    "Smem",
    "Swizzle",
    "SwizzleError",
    "Synthesis",
    "__version__",
    "check",
    "check_desc",
    "check_idesc",
    "check_tma",
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
