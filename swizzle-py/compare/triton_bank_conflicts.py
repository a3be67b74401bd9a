"""Our wavefront counts against Triton Gluon's ``gl.bank_conflicts``, on the host (no GPU).

For a generated set of row-major tiles (f16, f32), Triton swizzled shared layouts ``(vec, per_phase, max_phase)``
and blocked register layouts (each thread holds ``size_per_thread`` elements, ``threads_per_warp`` lanes laid over
rows and columns, one warp), this script asks two independent models what a warp's shared-memory loads cost:

- Triton: a ``@gluon.jit`` probe calls ``gl.bank_conflicts(reg_tensor.type, smem.type)`` while Triton 3.9 traces
  it for an sm_90 target (frontend only; Triton's own C++ ``bankConflictsMemDesc``). Triton picks one vector width
  for the whole access, takes the lanes of one wavefront (8 lanes for 128-bit, 16 for 64-bit, 32 otherwise) and
  returns ``2**k - 1`` "conflicts per wavefront" from linear algebra on the layouts' bases.
- ours: the lanes' element coordinates come from Triton's own linear layout of the register layout (so both sides
  see the same accesses); the smem layout is ``swz.Swizzle.from_triton(vec, per_phase, max_phase, cols)`` on element
  offsets; each register vector (the widest contiguous run of at most 128 bits, as a compiler emits it) is one
  ``ld.shared`` instruction, and ``swz.wavefronts`` counts its wavefronts with the bank model checked against the
  hardware. Our number in Triton's unit: the worst instruction's ``wavefronts / ideal - 1``.

Run (needs ``pip install triton`` and the swz wheel): ``python swizzle-py/compare/triton_bank_conflicts.py``.
Prints one line per disagreement and a summary.
"""

import contextlib
import io
import itertools
import sys

import swz
import triton
from triton._C.libtriton import gluon_ir, ir
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import make_backend
from triton.experimental import gluon
from triton.experimental.gluon import _runtime
import triton.experimental.gluon.language as gl

TARGET = GPUTarget("cuda", 90, 32)
BACKEND = make_backend(TARGET)
OPTIONS = BACKEND.parse_options({"num_warps": 1})


@gluon.jit
def _probe(REG: gl.constexpr, SH: gl.constexpr, ROWS: gl.constexpr, COLS: gl.constexpr, DT: gl.constexpr):
    x = gl.full([ROWS, COLS], 0, DT, layout=REG)
    smem = gl.allocate_shared_memory(DT, [ROWS, COLS], SH)
    gl.static_print("BANK_CONFLICTS", gl.bank_conflicts(x.type, smem.type))


def triton_conflicts(reg, shared, rows, cols, dtype):
    src = _runtime.GluonASTSource(
        _probe, signature={}, constexprs={"REG": reg, "SH": shared, "ROWS": rows, "COLS": cols, "DT": dtype}
    )
    ctx = ir.context()
    ir.load_dialects(ctx)
    BACKEND.load_dialects(ctx)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        src.make_ir(TARGET, OPTIONS, BACKEND.get_codegen_implementation(OPTIONS), BACKEND.get_module_map(), ctx)
    line = [l for l in out.getvalue().splitlines() if "BANK_CONFLICTS" in l][0]
    return int(line.split()[-1])


def lane_coords(reg, rows, cols):
    """(register, lane) -> (row, col), from Triton's linear layout of the register layout."""
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    ll = b.to_linear_layout(reg._to_ir(b), [rows, cols])

    def at(bases, i):
        r = c = 0
        for k, (br, bc) in enumerate(bases):
            if i >> k & 1:
                r ^= br
                c ^= bc
        return r, c

    nreg, nlane = 1 << len(ll.reg_bases), 1 << len(ll.lane_bases)
    return [
        [tuple(a ^ b for a, b in zip(at(ll.reg_bases, r), at(ll.lane_bases, l))) for l in range(nlane)]
        for r in range(nreg)
    ]


def ours(coords, sw, cols, elem_bytes):
    """Worst instruction's wavefronts / ideal - 1, and the vector width in bits."""
    off = [[sw.apply(r * cols + c) for (r, c) in lanes] for lanes in coords]
    nreg = len(off)
    vec = 1
    while vec * 2 * elem_bytes * 8 <= 128 and vec * 2 <= nreg and all(
        off[i][l] == off[i - i % (vec * 2)][l] + i % (vec * 2) for i in range(nreg) for l in range(32)
    ) and all(off[i - i % (vec * 2)][l] % (vec * 2) == 0 for i in range(nreg) for l in range(32)):
        vec *= 2
    bits = vec * elem_bytes * 8
    op = f"lds{bits}"
    worst = 0.0
    for first in range(0, nreg, vec):
        rep = swz.wavefronts(op, [off[first][l] * elem_bytes for l in range(32)])
        worst = max(worst, rep.wavefronts / rep.ideal - 1)
    return worst, bits


def cases():
    for dtype, elem, eb in [(gl.float16, "f16", 2), (gl.float32, "f32", 4)]:
        for rows, cols in [(32, 64), (64, 32), (16, 128)]:
            for spt in [1, 2, 4, 8]:
                for tc in [1, 2, 4, 8, 16, 32]:
                    if spt * tc > cols:
                        continue
                    reg = gl.BlockedLayout([1, spt], [32 // tc, tc], [1, 1], [1, 0])
                    for vec, pp, mp in itertools.product([1, 2, 4, 8], [1, 2, 4], [1, 2, 4, 8]):
                        if vec * mp > cols or (mp == 1 and (vec, pp) != (1, 1)):
                            continue
                        yield dtype, elem, eb, rows, cols, reg, (vec, pp, mp), f"[1,{spt}]x[{32 // tc},{tc}]"


def main():
    agree = differ = 0
    by_bits = {}
    for dtype, elem, eb, rows, cols, reg, (vec, pp, mp), regname in cases():
        shared = gl.SwizzledSharedLayout(vec, pp, mp, [1, 0])
        t = triton_conflicts(reg, shared, rows, cols, dtype)
        sw = swz.Swizzle.from_triton(vec, pp, mp, cols)
        o, bits = ours(lane_coords(reg, rows, cols), sw, cols, eb)
        key = (elem, bits)
        a = by_bits.setdefault(key, [0, 0])
        if abs(o - t) < 1e-9:
            agree += 1
            a[0] += 1
        else:
            differ += 1
            a[1] += 1
            print(f"differ: {rows}x{cols} {elem} reg {regname} triton({vec},{pp},{mp}) = {sw}: "
                  f"triton {t}, ours {o:g} (lds{bits})")
    print(f"triton {triton.__version__}: {agree + differ} cases, {agree} agree, {differ} differ")
    for (elem, bits), (a, d) in sorted(by_bits.items()):
        print(f"  {elem} lds{bits}: {a} agree, {d} differ")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
