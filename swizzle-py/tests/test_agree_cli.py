"""The Python API and `swz` agree on every spec and verdict of a generated set: the same offsets, the same bank
reports and exit verdicts, the same synthesis, the same block orders, the same header text, the same one-line
errors."""

import itertools
import json

import numpy as np
import pytest

import swz
from conftest import cli_error, run_swz

SPECS = (
    [f"{b},{m},{s}" for b in range(4) for m in range(6) for s in range(-7, 8)]
    + ["Sw<3,3,3>", "Sw<3,4,3>", "1,6,-2+3,3,5", "Sw<1,6,-2>+Sw<3,3,5>", "2,4,3+1,7,-3", "SW32", "SW64", "SW128", "NONE"]
)


@pytest.mark.parametrize("spec", SPECS)
def test_apply_agrees(spec):
    code, out, err = run_swz("apply", "--swizzle", spec, "--range", "0..2048")
    if code == 0:
        f = swz.Swizzle.parse(spec)
        assert out.split() == [str(v) for v in f.apply(np.arange(2048)).tolist()]
        assert out.split() == [str(f.apply(o)) for o in range(2048)]
    else:
        assert code == 2
        with pytest.raises(swz.SwizzleError) as e:
            swz.Swizzle.parse(spec)
        assert str(e.value) == cli_error(err, "--swizzle", "swizzle")
        # The integer constructor refuses the same triple with the same reason.
        if spec.count(",") == 2 and "<" not in spec:
            b, m, s = (int(x) for x in spec.split(","))
            with pytest.raises(swz.SwizzleError) as e2:
                swz.Swizzle(b, m, s)
            assert str(e2.value) == str(e.value).removeprefix("swizzle: ")


TILES = [("64x64", "f16"), ("32x32", "f32"), ("16x256", "f16"), ("128x32", "f32"), ("8x64", "f16"), ("64x64", "u8"), ("32x16", "f64")]
LAYOUTS = [None, "3,3,3", "2,3,3", "3,4,3", "5,0,5", "SW128", "SW64", "SW32", "1,6,-2+3,3,5"]
PATTERN_SETS = [["row16", "ldmatrix.x4"], ["col.ld", "row.st"], ["mma.acc"], ["ldmatrix.x4.trans", "stmatrix.x4.b"], ["ldmatrix.x4@16"]]


@pytest.mark.parametrize("tile,elem,layout", [(t, e, l) for (t, e) in TILES for l in LAYOUTS])
def test_check_agrees(tile, elem, layout):
    for patterns in PATTERN_SETS:
        args = ["check", "--tile", tile, "--elem", elem]
        if layout is not None:
            args += ["--swizzle", layout]
        for p in patterns:
            args += ["--pattern", p]
        code, out, err = run_swz(*args)
        if code == 2:
            with pytest.raises(swz.SwizzleError) as e:
                swz.check(tile, patterns, elem=elem, swizzle=layout)
            flag = err.split(":")[1].strip() if err.startswith("swz: --") else None
            assert str(e.value) == cli_error(err, flag, flag.removeprefix("--")), args
            continue
        r = swz.check(tile, patterns, elem=elem, swizzle=layout)
        assert str(r) == out, args
        assert r.conflict_free == (code == 0), args
        assert (r.verdict is None) == (code == 0) and (code == 0 or err == f"swz: {r.verdict}\n"), (args, err)


def test_check_padding_and_second_layer_agree():
    cases = [
        (["--pad", "4"], dict(pad=4), "32x32", "f32", ["col.ld", "row.st"]),
        (["--pad", "16"], dict(pad=16), "64x64", "f16", ["ldmatrix.x4"]),
        (["--swizzle", "1,6,-2", "--then", "3,3,5"], dict(swizzle="1,6,-2", then="3,3,5"), "16x256", "f16", ["ldmatrix.x4@16", "row16"]),
    ]
    for flags, kw, tile, elem, patterns in cases:
        args = ["check", "--tile", tile, "--elem", elem, *flags] + [a for p in patterns for a in ("--pattern", p)]
        code, out, _ = run_swz(*args)
        r = swz.check(tile, patterns, elem=elem, **kw)
        assert (str(r), r.conflict_free) == (out, code == 0), args


@pytest.mark.parametrize("tile,elem", [("64x64", "f16"), ("32x32", "f32"), ("16x256", "f16"), ("64x32", "f32"), ("32x64", "u8")])
def test_synth_agrees(tile, elem):
    for patterns in [["row16", "ldmatrix.x4"], ["col.ld", "row.st"], ["ldmatrix.x4.trans", "stmatrix.x4"], ["mma.acc", "row16"]]:
        args = ["synth", "--tile", tile, "--elem", elem] + [a for p in patterns for a in ("--pattern", p)]
        code, out, err = run_swz(*args)
        if code == 2:
            with pytest.raises(swz.SwizzleError):
                swz.synth(tile, patterns, elem=elem)
            continue
        s = swz.synth(tile, patterns, elem=elem)
        assert str(s) == out, args
        assert s.conflict_free == (code == 0), args


ORDERS = ["identity", "strip:1", "strip:3", "strip:4", "cutlass:0", "cutlass:1", "cutlass:2", "group-m:1", "group-m:3",
          "group-m:8", "serpentine:2", "serpentine:5", "morton", "diagonal"]


@pytest.mark.parametrize("order", ORDERS)
def test_raster_agrees(order):
    for grid in ["1x1", "5x3", "3x5", "8x8", "16x4", "7x9", "32x32"]:
        code, out, err = run_swz("raster", "--order", order, "--grid", grid)
        if code == 2:
            with pytest.raises(swz.SwizzleError) as e:
                swz.Raster(order).order(grid)
            assert str(e.value) == cli_error(err, "--order", "order"), (order, grid)
            continue
        want = [f"{b} {t[0]} {t[1]}" if t else f"{b} - -" for b, t in enumerate(swz.Raster(order).order(grid))]
        assert out.splitlines() == want, (order, grid)


HEADERS = [
    ([("SmemA", "3,3,3")], [], []),
    ([("SmemA", "3,3,3"), ("Two", "1,6,-2+3,3,5")], [("GemmOrder", "strip:4"), ("G2", "group-m(group=8)")], []),
    ([], [("O", "cutlass:2"), ("M", "morton")], [("A", "64x64:f16:3,3,3"), ("X", "16x256:f16:1,6,-2+3,3,5:pad=16"), ("B", "64x64:f16:SW128")]),
    ([("class", "3,3,3")], [], []),
    ([("A", "3,3,3"), ("A", "2,3,3")], [], []),
    ([], [("S", "strip:0")], []),
]


@pytest.mark.parametrize("swizzles,rasters,layouts", HEADERS)
def test_emit_header_agrees(swizzles, rasters, layouts):
    args = ["emit-header"]
    h = swz.Header()
    error = None
    try:
        for n, s in swizzles:
            args += ["--swizzle", f"{n}={s}"]
            h.swizzle(n, s)
        for n, r in rasters:
            args += ["--raster", f"{n}={r}"]
            h.raster(n, r)
        for n, l in layouts:
            args += ["--layout", f"{n}={l}"]
            h.layout(n, l)
    except swz.SwizzleError as e:
        error = str(e)
    code, out, err = run_swz(*args)
    if error is None:
        assert code == 0 and out == h.render(), err
    else:
        assert code == 2 and err.startswith("swz: --")
        assert error == cli_error(err, "--", ""), (error, err)


def test_wavefronts_agree():
    rng = np.random.default_rng(2026)
    ops = swz.op_names()
    lines = []
    for i in range(600):
        op = ops[i % len(ops)]
        align = 16 if op.startswith(("ldmatrix", "stmatrix")) else int(op[3:]) // 8
        addrs = (rng.integers(0, 1024, size=32) * align * int(rng.choice([1, 1, 8, 32]))).tolist()
        lines.append((op, addrs))
    lines.append(("lds7", [0] * 32))
    lines.append(("lds128", [8] + [0] * 31))
    lines.append(("lds32", [0] * 31))
    stdin = "\n".join(json.dumps({"op": op, "addrs": a}) for op, a in lines) + "\n"
    code, out, _ = run_swz("wavefronts", "--batch", stdin=stdin)
    assert code == 2  # the three bad lines
    answers = [json.loads(l) for l in out.splitlines()]
    assert len(answers) == len(lines)
    for (op, addrs), a in zip(lines, answers):
        try:
            r = swz.wavefronts(op, addrs)
        except swz.SwizzleError as e:
            assert "error" in a and str(e).split(": ", 1)[1] == a["error"], (op, a, e)
            continue
        assert (r.wavefronts, r.ideal, r.conflicts) == (a["wavefronts"], a["ideal"], a["conflicts"]), (op, addrs)
    # One instruction, as `swz wavefronts --op --addrs` prints it.
    op, addrs = lines[5]
    code, out, _ = run_swz("wavefronts", "--op", op, "--addrs", ",".join(map(str, addrs)))
    r = swz.wavefronts(op, addrs)
    assert code == 0 and out == str(r) + r.bank_map()
