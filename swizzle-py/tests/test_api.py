"""The Python API on its own: each value against an independent reference (CuTe's and Triton's formulas as they
write them, the PTX descriptor layout, brute-force bank counting), never against itself."""

import itertools
import pickle

import numpy as np
import pytest

import swz


def cute_apply(b, m, s, o):
    """CuTe's Swizzle<B, M, S>::apply, as swizzle.hpp writes it."""
    bit_msk = (1 << b) - 1
    yyy_msk = bit_msk << (m + max(0, s))
    msk_sft = s
    return o ^ ((o & yyy_msk) >> msk_sft if msk_sft >= 0 else (o & yyy_msk) << -msk_sft)


LEGAL = [(b, m, s) for b in range(4) for m in range(5) for s in range(-6, 7) if abs(s) >= b]


@pytest.mark.parametrize("b,m,s", LEGAL)
def test_apply_is_cutes_formula_on_ints_and_arrays(b, m, s):
    sw = swz.Swizzle(b, m, s)
    offsets = np.random.default_rng(b * 100 + m * 10 + s + 6).integers(0, 1 << 16, size=300)
    want = [cute_apply(b, m, s, int(o)) for o in offsets]
    assert [sw.apply(int(o)) for o in offsets] == want
    got = sw.apply(offsets.reshape(20, 15))
    assert got.dtype == np.uint32 and got.shape == (20, 15)
    assert got.ravel().tolist() == want
    assert (str(sw), repr(sw)) == (f"Sw<{b},{m},{s}>", f"Swizzle({b}, {m}, {s})")
    assert sw.inverse().apply(sw.apply(12345)) == 12345


def test_defaults_masks_and_values():
    assert swz.Swizzle(3, 3) == swz.Swizzle(3, 3, 3)
    sw = swz.Swizzle(3, 4, 3)
    assert (sw.b, sw.m, sw.s, sw.yyy_msk, sw.zzz_msk, sw.msk_sft) == (3, 4, 3, 0b1110000000, 0b1110000, 3)
    assert sw.period == 1024
    assert hash(sw) == hash(swz.Swizzle(3, 4, 3)) and sw != swz.Swizzle(3, 4, 4)
    assert pickle.loads(pickle.dumps(sw)) == sw
    assert sw.cute == "cute::Swizzle<3,4,3>" and sw.cuda_type == "swz::Swizzle<3, 4, 3>"
    assert swz.Swizzle(3, 3, 3)(64) == 72 and swz.Swizzle(0, 0, 0).is_identity
    assert swz.Swizzle(3, 3, 3).apply(np.array([], dtype=np.int64)).shape == (0,)
    assert swz.Swizzle(3, 3, 3).apply([64, 65]).tolist() == [72, 73]


def test_two_layers():
    c = swz.Swizzle.parse("1,6,-2+3,3,5")
    assert isinstance(c, swz.Composed) and str(c) == "Sw<1,6,-2> then Sw<3,3,5>"
    a, b = swz.Swizzle(1, 6, -2), swz.Swizzle(3, 3, 5)
    for o in range(0, 4096, 7):
        assert c.apply(o) == cute_apply(3, 3, 5, cute_apply(1, 6, -2, o))
        assert c.inverse().apply(c.apply(o)) == o
    assert c == swz.Composed(a, b) and (c.first, c.second) == (a, b)
    assert a.then(b) == c
    # Two layers that merge into one swizzle come back as one.
    assert isinstance(swz.Swizzle(3, 3, 3).then(swz.Swizzle(0, 0, 0)), swz.Swizzle)
    assert c.apply(np.arange(64)).tolist() == [c.apply(o) for o in range(64)]
    assert pickle.loads(pickle.dumps(c)) == c


def test_byte_modes_with_a_unit():
    # TMA's 128-byte swizzle: 16-byte chunks XORed with the row index mod 8 (ThunderKittens' formula).
    def tk(addr, swizzle_bytes):
        return addr ^ (((addr % (swizzle_bytes * 8)) >> 7) << 4)

    for name, nbytes in [("SW32", 32), ("SW64", 64), ("SW128", 128)]:
        on_bytes = swz.Swizzle.mode(name)
        assert all(on_bytes.apply(a) == tk(a, nbytes) for a in range(0, 8192, 16))
        assert on_bytes.byte_mode() == name
        for elem, size in [("f16", 2), ("f32", 4), ("u8", 1)]:
            on_elems = swz.Swizzle.mode(name, unit=elem)
            assert all(on_elems.apply(o) * size == tk(o * size, nbytes) for o in range(0, 4096))
            assert on_elems.byte_mode(elem) == name
            assert on_elems.to_bytes(elem) == on_bytes and on_bytes.to_elems(elem) == on_elems
    assert swz.Swizzle.mode("CU_TENSOR_MAP_SWIZZLE_128B", unit="f16") == swz.Swizzle(3, 3, 3)
    assert swz.Swizzle.mode("NONE").is_identity
    assert swz.Swizzle(3, 3, 3).byte_mode("f32") is None
    assert [(n, v) for n, _, v, _ in swz.tma_modes()] == [("NONE", 0), ("SW32", 1), ("SW64", 2), ("SW128", 3)]
    with pytest.raises(swz.SwizzleError, match="no exact form on element offsets"):
        swz.Swizzle(3, 1, 3).to_elems("f32")


def triton_offset(row, col, row_elems, vec, per_phase, max_phase):
    """Triton's swizzled shared layout, as Triton writes it."""
    phase = (row // per_phase) % max_phase
    return row * row_elems + ((col // vec) ^ phase) * vec + col % vec


@pytest.mark.parametrize(
    "vec,per_phase,max_phase,row_elems",
    [(v, p, m, l) for v, p, m, l in itertools.product([1, 2, 4, 8], [1, 2, 4], [1, 2, 4, 8], [32, 64, 128]) if v * m <= l],
)
def test_triton_parameters(vec, per_phase, max_phase, row_elems):
    sw = swz.Swizzle.from_triton(vec, per_phase, max_phase, row_elems)
    for row in range(0, 40, 3):
        for col in range(row_elems):
            assert sw.apply(row * row_elems + col) == triton_offset(row, col, row_elems, vec, per_phase, max_phase)
    back = swz.Swizzle.from_triton(*sw.to_triton(row_elems), row_elems)
    assert back == sw


def test_triton_refusals():
    with pytest.raises(swz.SwizzleError, match="exceeds the row length 32"):
        swz.Swizzle.from_triton(8, 1, 8, 32)
    with pytest.raises(swz.SwizzleError, match="vec = 3 is not a power of two"):
        swz.Swizzle.from_triton(3, 1, 8, 64)
    with pytest.raises(swz.SwizzleError, match="S must be positive"):
        swz.Swizzle(1, 6, -2).to_triton(64)


def test_cute_and_absolute_conventions():
    assert swz.Swizzle.from_cute("cute::Swizzle<3,4,3>") == swz.Swizzle(3, 4, 3)
    assert swz.Swizzle.from_cute("Swizzle<2, 4, 3>") == swz.Swizzle(2, 4, 3)
    assert swz.Swizzle.from_cute("Sw<3,3,3>") == swz.Swizzle(3, 3, 3)
    assert swz.Swizzle(3, 4, 3).to_absolute() == (3, 4, 7)
    assert swz.Swizzle.from_absolute(3, 4, 7) == swz.Swizzle(3, 4, 3)
    # YYY below ZZZ: CuTe's M is the lower (YYY) position.
    assert swz.Swizzle.from_absolute(1, 6, 4) == swz.Swizzle(1, 4, -2)
    for b, m, s in LEGAL:
        sw = swz.Swizzle(b, m, s)
        if b > 0:
            assert swz.Swizzle.from_absolute(*sw.to_absolute()) == sw


def brute_wavefronts(addrs, lanes_per_phase):
    """Distinct 4-byte words per bank, worst bank, summed over phases (scalar accesses)."""
    total = 0
    for p in range(0, 32, lanes_per_phase):
        words = {}
        for a in addrs[p:p + lanes_per_phase]:
            words.setdefault((a // 4) % 32, set()).add(a // 4)
        total += max(len(w) for w in words.values())
    return total


def test_wavefronts_scalar_against_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(300):
        addrs = (rng.integers(0, 4096, size=32) * 4).tolist()
        r = swz.wavefronts("lds32", addrs)
        assert r.wavefronts == brute_wavefronts(addrs, 32)
        assert r.conflicts == r.wavefronts - r.ideal
    col = [128 * l for l in range(32)]
    r = swz.wavefronts("lds32", col)
    assert (r.wavefronts, r.ideal) == (32, 1) and "bank 0 gets 32 distinct words" in str(r)
    assert "bank" in r.bank_map() and len(r.phases) == 1


def test_check_and_synth():
    plain = swz.check("64x64", ["ldmatrix.x4"], elem="f16")
    assert not plain.conflict_free and plain.verdict == "bank conflicts in 1 of 1 pattern(s): ldmatrix.x4"
    [p] = plain.patterns
    # 16 instructions of 4 matrices, each 8 rows of 128 bytes starting in one bank: 8 wavefronts per matrix.
    assert (p.instructions, p.wavefronts, p.ideal, p.conflicts) == (16, 512, 64, 448)
    good = swz.check("64x64", ["ldmatrix.x4", "row16"], elem="f16", swizzle="3,3,3")
    assert good.conflict_free and good.verdict is None and bool(good)
    assert swz.check((64, 64), ["ldmatrix.x4"], swizzle=swz.Swizzle.mode("SW128", unit="f16")).conflict_free
    # Any iterable of names, read once.
    assert swz.check("64x64", (p for p in ["ldmatrix.x4", "row16"]), swizzle="3,3,3").conflict_free
    padded = swz.check("32x32", ["col.ld", "row.st"], elem="f32", pad=4)
    assert padded.conflict_free
    s = swz.synth("64x64", ["row16", "ldmatrix.x4"], elem="f16")
    assert s.conflict_free and s.swizzle == swz.Swizzle(3, 4, 3) and s.in_elems == swz.Swizzle(3, 3, 3)
    assert s.evidence == [("row16", 64, 64, 64), ("ldmatrix.x4", 512, 64, 64)]
    assert swz.check("64x64", ["ldmatrix.x4"], swizzle=s.in_elems).conflict_free
    smem = swz.Smem(64, 64, "f16", "3,3,3")
    assert smem.byte_addr(1, 0) == 2 * 72 and smem.offset(1, 0) == 72 and str(smem) == "64x64 f16 row-major, Sw<3,3,3> on f16"
    assert swz.Smem.parse("64x64:f16:SW128") .byte_addr(1, 0) == smem.byte_addr(1, 0)
    assert smem.check(["ldmatrix.x4"]).conflict_free and smem.check(iter(["ldmatrix.x4"])).conflict_free
    assert set(swz.pattern_names()) >= {"row16", "ldmatrix.x4", "mma.acc"} and "lds128" in swz.op_names()


def test_raster_orders_are_bijections():
    for spec in ["identity", "strip:3", "cutlass:2", "group-m:4", "serpentine:2", "diagonal"]:
        r = swz.Raster(spec)
        for grid in [(1, 1), (5, 3), (7, 9), (16, 4)]:
            tiles = [t for t in r.order(grid) if t is not None]
            assert sorted(tiles) == sorted(itertools.product(range(grid[0]), range(grid[1]))), (spec, grid)
            for bid, t in enumerate(r.order(grid)):
                if t is not None:
                    assert r.bid_of(t[0], t[1], grid) == bid
    assert swz.Raster("strip", tile=4) == swz.Raster("strip:4") and str(swz.Raster("strip:4")) == "strip(tile=4)"
    assert swz.Raster("morton").order("4x4")[:4] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert "strip" in swz.raster_orders()


def test_header_and_descriptors():
    text = swz.Header().swizzle("SmemA", "3,3,3").raster("GemmOrder", "strip:4").layout("A", "64x64:f16:3,3,3").render()
    assert "using SmemA = swz::Swizzle<3, 3, 3>;" in text and "return raster_strip(bid, gx, gy, 4u);" in text
    assert text.startswith(swz.header()[:200])
    t = swz.OperandTile("SW128", "bf16", "K", 128, 64)
    p = t.params()
    assert (p["box_inner"], p["box_outer"], p["boxes"]) == (64, 128, 1)
    assert (p["layout_type"], p["sbo"], p["smem_align"], p["tile_bytes"]) == (1, 1024, 1024, 16384)
    assert t.smem_swizzle() == swz.Swizzle.mode("SW128", unit="bf16")
    d = t.descriptor(2048)
    # PTX matrix descriptor: addr >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, layout in 62-63.
    assert d & 0x3FFF == 2048 >> 4 and (d >> 16) & 0x3FFF == 1 and (d >> 32) & 0x3FFF == 1024 >> 4 and d >> 62 == 1
    assert swz.decode_descriptor(d) == {"addr": 2048, "lbo": 16, "sbo": 1024, "base_offset": 0, "layout_type": 1}
    assert swz.encode_descriptor(2048, 16, 1024, 0, 1) == d
    # The PTX ISA's example: K-major, 32B swizzling, tf32: SBO = 256 bytes encodes as 16.
    e = swz.encode_descriptor(0, 16, 256, 0, 3)
    assert (e >> 16) & 0x3FFF == 1 and (e >> 32) & 0x3FFF == 16 and e >> 62 == 3
    assert "struct OpA" in t.cuda_struct("OpA")
    assert "OpA" in swz.Header().operand("OpA", t).render()
    with pytest.raises(swz.SwizzleError, match="not a multiple of 1024"):
        t.descriptor(128)
    with pytest.raises(swz.SwizzleError, match="16-bit types"):
        swz.OperandTile("SW128", "f32", "MN", 64, 64)
