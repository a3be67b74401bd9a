"""The descriptor API and `swz` agree on a generated set: `swz decode desc` prints the fields and element addresses
`Descriptor` gives and refuses the same bits with the same line; `swz check desc|tma|idesc` print what
`LayoutCheck` says, exit with its verdict and give its reason."""

import itertools
import random
import re

import pytest

import swz
from conftest import run_swz

OPERANDS = ["SW128:bf16:K:128x64", "SW128:bf16:MN:128x64", "SW64:f16:K:64x32", "SW32:bf16:MN:64x32", "NONE:bf16:K:64x64",
            "NONE:f16:MN:64x64", "SW128:e4m3:K:128x128", "SW128:tf32:K:64x32", "SW128A32:bf16:MN:128x64",
            "SW64:e4m3:MN:64x64"]


def generated_descriptors():
    """Each operand's own descriptors on both architectures, and each with one field broken as kernels break
    it: the layout, LBO / SBO in bytes or off by a row, the start off the pattern's period, the base offset, the
    version bits, a reserved bit."""
    rng = random.Random(2026)
    out = []
    for spelled, arch in itertools.product(OPERANDS, ["sm_90", "sm_100"]):
        try:
            d = swz.Descriptor.of(spelled, arch, 0x2400)
        except swz.SwizzleError:
            continue
        bits = d.encode()
        variants = [bits, bits ^ 1 << 62, bits ^ 1 << 61, bits ^ 1 << 63, bits ^ 1 << 46, bits | 1 << 14, bits | 1 << 52,
                    bits | 3 << 49, bits + 8, (bits & ~0x3FFF) | (0x2480 >> 4)]
        for shift in (16, 32):
            field = bits >> shift & 0x3FFF
            variants += [bits & ~(0x3FFF << shift) | ((field << 4) & 0x3FFF) << shift,
                         bits & ~(0x3FFF << shift) | (field + 1) << shift,
                         bits & ~(0x3FFF << shift)]
        variants += [rng.getrandbits(64) for _ in range(2)]
        out += [(v, spelled, arch) for v in variants]
    return out


CASES = generated_descriptors()


def fields_from(out):
    """The numbers `swz decode desc` prints, by field."""
    grab = lambda pat: re.search(pat, out).group(1)  # noqa: E731
    return {
        "start": int(grab(r"start address   (0x[0-9a-f]+)"), 16),
        "lbo": int(grab(r"LBO             (\d+) B")),
        "sbo": int(grab(r"SBO             (\d+) B")),
        "base_offset": int(grab(r"base offset     (\d+)")),
        "needed_base_offset": int(grab(r"it needs (\d+)\)")),
        "layout_words": grab(r"layout type     \d+ = (.*?) \(Sw<"),
        "period": int(grab(r"repeats every (\d+) B")),
        "problems": re.findall(r"  problem: (.*)", out),
    }


def element_map(out):
    rows = [l.split() for l in out.splitlines() if re.match(r"  (mn|k) +\d+ ", l)]
    return [[int(c, 16) for c in r[2:]] for r in rows], [int(r[1]) for r in rows]


@pytest.mark.parametrize("bits,spelled,arch", CASES[::2])
def test_decode_desc_agrees(bits, spelled, arch):
    major, elem = spelled.split(":")[2], spelled.split(":")[1]
    code, out, err = run_swz("decode", "desc", hex(bits), "--arch", arch, "--major", major, "--elem", elem)
    assert code in (0, 1), err
    f = swz.Descriptor.fields(bits, arch)
    printed = fields_from(out)
    assert printed == {
        "start": f.start, "lbo": f.lbo, "sbo": f.sbo, "base_offset": f.base_offset, "needed_base_offset": f.needed_base_offset,
        "layout_words": f.layout_words, "period": f.period, "problems": swz.Descriptor.problems(bits, arch),
    }
    if code == 1:
        with pytest.raises(swz.SwizzleError) as e:
            swz.Descriptor.decode(bits, arch)
        assert f"swz: {e.value}\n" == err
        return
    d = swz.Descriptor.decode(bits, arch)
    assert d == f and err == ""
    cells, heads = element_map(out)
    if d.layout == "SW128A32" and major == "K":
        assert cells == [] and "MN-major only" in out
        with pytest.raises(swz.SwizzleError):
            d.element_address(0, 0, major, elem)
        return
    cols = [int(c) for c in re.findall(r"(?:mn|k) (\d+)", out.split("contiguous:\n")[1].splitlines()[0])]
    for head, row in zip(heads, cells):
        for col, addr in zip(cols, row):
            mn, k = (head, col) if major == "K" else (col, head)
            assert d.element_address(mn, k, major, elem) == addr, (mn, k)
    assert cells and len(cells[0]) == len(cols)


@pytest.mark.parametrize("bits,spelled,arch", CASES)
def test_check_desc_agrees(bits, spelled, arch):
    for mma_mn in [None, 64]:
        args = ["check", "desc", hex(bits), "--operand", spelled, "--arch", arch]
        if mma_mn:
            args += ["--mma-mn", str(mma_mn)]
        code, out, err = run_swz(*args)
        assert code in (0, 1), err
        r = swz.check_desc(bits, spelled, arch, mma_mn)
        assert (str(r), r.matches) == (out, code == 0), args
        cli_verdict = err.removeprefix("swz: ").rstrip("\n").replace("--arch sm_100", 'arch="sm_100"') or None
        assert r.verdict == cli_verdict, args


def generated_maps():
    out = []
    for spelled in OPERANDS:
        t = spelled.split(":")
        elem, bytes_ = t[1], {"bf16": 2, "f16": 2, "e4m3": 1, "tf32": 4}[t[1]]
        mode = {"SW128A32": "128B_ATOM_32B", "NONE": "NONE"}.get(t[0], t[0].removeprefix("SW") + "B")
        mn, k = (int(x) for x in t[3].split("x"))
        row = {"NONE": 16, "SW32": 32, "SW64": 64}.get(t[0], 128) // bytes_
        inner, outer = (row, mn) if t[2] == "K" else (row, k)
        base = dict(dtype=elem, dims=[4096, 4096], strides=[4096 * bytes_], box_dim=[inner, outer], swizzle=mode, smem=0x2400)
        for change in [{}, {"swizzle": "64B"}, {"swizzle": "CU_TENSOR_MAP_SWIZZLE_128B"}, {"swizzle": "128B_ATOM_64B"},
                       {"smem": 0x2480}, {"smem": 0x2410}, {"box_dim": [inner * 2, outer]}, {"box_dim": [inner // 2 or 1, outer]},
                       {"box_dim": [outer, inner]}, {"box_dim": [inner, 300]}, {"dtype": "f32"}, {"strides": [4100]},
                       {"strides": [16]}, {"interleave": "16B"}, {"dims": [4096, 4096, 2], "strides": [4096 * bytes_, 2**30],
                       "box_dim": [inner, outer, 2]}, {"box_dim": [0, outer]}]:
            out.append((spelled, {**base, **change}))
    return out


@pytest.mark.parametrize("spelled,kw", generated_maps())
def test_check_tma_agrees(spelled, kw):
    args = ["check", "tma", "--operand", spelled, "--dtype", kw["dtype"], "--swizzle", kw["swizzle"], "--smem", hex(kw["smem"]),
            "--dims", ",".join(map(str, kw["dims"])), "--strides", ",".join(map(str, kw["strides"])),
            "--box", ",".join(map(str, kw["box_dim"]))]
    if "interleave" in kw:
        args += ["--interleave", kw["interleave"]]
    code, out, err = run_swz(*args)
    assert code in (0, 1), err
    r = swz.check_tma(spelled, **kw)
    assert (str(r), r.matches) == (out, code == 0), args
    assert r.verdict == (err.removeprefix("swz: ").rstrip("\n") or None), args


MMAS = ["bf16:bf16:f32:128x256:K:K", "f16:f16:f16:64x64:MN:K", "e4m3:e5m2:f32:256x256:K:MN", "tf32:tf32:f32:128x128:K:K",
        "e2m1:e2m1:f32:128x64:K:K", "f16:f16:f32:128x64:K:K:2", "e4m3:e4m3:f16:64x8:K:K"]


def generated_idescs():
    rng = random.Random(32)
    out = []
    for spelled in MMAS:
        bits = swz.InstrDesc(spelled).encode()
        flips = [0, 1 << 23, 1 << 6, 1 << 29, 1 << 0, 1 << 3, 1 << 4, 1 << 5, 1 << 7, 1 << 10, 1 << 13, 1 << 15, 1 << 16,
                 1 << 17, 1 << 22, 1 << 24, 1 << 28, 1 << 30, 3 << 7]
        out += [(bits ^ f, spelled) for f in flips]
        m = (bits >> 24 & 0x1F)
        out.append((bits & ~(0x1F << 24) | m << 23, spelled))  # M one bit low
        out += [(rng.getrandbits(32), spelled) for _ in range(2)]
    return out


@pytest.mark.parametrize("bits,spelled", generated_idescs())
def test_idesc_agrees(bits, spelled):
    code, out, err = run_swz("check", "idesc", hex(bits), "--mma", spelled)
    assert code in (0, 1), err
    r = swz.check_idesc(bits, spelled)
    assert (str(r), r.matches, r.verdict) == (out, code == 0, err.removeprefix("swz: ").rstrip("\n") or None)
    meant = swz.InstrDesc(spelled)
    for kind, group in [(None, None), (meant.kind, meant.cta_group), ("f8f6f4", 2)]:
        args = ["decode", "idesc", hex(bits)]
        if kind:
            args += ["--kind", kind, "--cta-group", str(group)]
        code, out, err = run_swz(*args)
        try:
            d = swz.InstrDesc.decode(bits, kind, group)
        except swz.SwizzleError as e:
            assert code == 1 and err == f"swz: {e}\n", args
            continue
        assert code == 0 and err == "", args
        assert re.search(r"A type +\d = (\w+)", out).group(1) == d.a and re.search(r"B type +\d = (\w+)", out).group(1) == d.b
        assert f"-> M = {d.m}\n" in out and f"-> N = {d.n}\n" in out and f"m{d.m}n{d.n}k{d.k}," in out, args
        assert f"{d.rows_per_cta} rows per CTA x {d.tmem_columns} columns" in out
        assert f"tcgen05.alloc {d.tmem_alloc_columns} columns" in out
        assert f"cta_group::{d.cta_group}" in out and f"kind::{d.kind}" in out
        assert ("1 = MN-major" in out.split("A major")[1].splitlines()[0]) == (d.a_major == "MN")
        assert ("1 = f32" in out) == (d.d == "f32")
