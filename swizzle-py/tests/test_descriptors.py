"""The descriptor API on its own: encoders against the PTX ISA's bit tables written out here and against NVIDIA's
own encoders (the CuTe oracle table: CUTLASS's descriptors, instruction descriptors and tensor addresses, compiled
with nvcc); each layout bug kernels have shipped caught with its named reason, and the fixed value passing."""

import pytest

import swz
from conftest import ROOT

TABLE = (ROOT / "swizzle-core" / "tests" / "data" / "cute_descriptors.txt").read_text().splitlines()
ELEM = {"8": "e4m3", "16": "bf16", "32": "tf32"}
# PTX "Shared memory descriptor" layout type: sm_100's 3-bit codes; sm_90 holds code >> 1 in bits 62-63.
LAYOUT_OF_CODE = {0: "NONE", 1: "SW128A32", 2: "SW128", 4: "SW64", 6: "SW32"}


def ptx_encode(arch, start, lbo, sbo, base, lbo_mode, layout):
    """The descriptor bits as the PTX ISA's table lays them out."""
    enc = lambda x: (x & 0x3FFFF) >> 4  # noqa: E731 - matrix-descriptor-encode
    code = {v: k for k, v in LAYOUT_OF_CODE.items()}[layout]
    bits = enc(start) | enc(lbo) << 16 | enc(sbo) << 32 | base << 49
    if arch == "sm_100":
        return bits | 1 << 46 | lbo_mode << 52 | code << 61
    return bits | (code >> 1) << 62


def table(kind):
    for line in TABLE:
        if line.startswith(kind + " "):
            head, _, rest = line.partition(" : ")
            yield head.split(" ")[1:], rest.split(" ") if rest else []


def operand(f):
    """`ARCH MAJOR LAYOUT BITS MN K SLICE ADDR` -> (arch, spelling, slice, addr)."""
    arch = "sm_90" if f[0] == "90" else "sm_100"
    return arch, f"{f[2]}:{ELEM[f[3]]}:{f[1]}:{f[4]}x{f[5]}", int(f[6]), int(f[7], 16)


def test_fields_are_the_ptx_table_and_cutes_bit_fields():
    n = 0
    for f, _ in table("f"):
        arch = "sm_90" if f[0] == "90" else "sm_100"
        code = int(f[6]) << (1 if arch == "sm_90" else 0)
        start, lbo, sbo, base, mode = int(f[1], 16), int(f[2], 16), int(f[3], 16), int(f[4]), int(f[5])
        d = swz.Descriptor(arch, start, lbo, sbo, LAYOUT_OF_CODE[code], base_offset=base, lbo_absolute=bool(mode))
        assert d.encode() == int(f[7], 16) == ptx_encode(arch, start, lbo, sbo, base, mode, LAYOUT_OF_CODE[code]), f
        back = swz.Descriptor.decode(int(f[7], 16), arch)
        assert back == d and (back.start, back.lbo, back.sbo, back.base_offset) == (start, lbo, sbo, base)
        assert int(d) == d.encode()
        n += 1
    assert n > 50


def test_cutes_descriptors_are_ours_and_check_clean():
    """Every descriptor CuTe builds for a tile (every layout, 8/16/32-bit, both majors, sm_90 and sm_100) decodes
    and checks clean against that tile read one instruction's MN at a time: no false alarm. The first one of each
    tile is the one `Descriptor.of` derives from the same spec."""
    n = 0
    for f, descs in table("g"):
        arch, spelled, slice_mn, addr = operand(f)
        if addr < 1 << 18:
            assert swz.Descriptor.of(spelled, arch, addr, mma_mn=slice_mn).encode() == int(descs[0], 16), f
        for c in descs:
            bits = int(c, 16)
            r = swz.check_desc(bits, spelled, arch, mma_mn=slice_mn)
            assert r.matches and str(r) == "matches\n" and r.verdict is None, (f, c, r.mismatches)
            assert swz.Descriptor.decode(bits, arch).check(spelled, slice_mn).matches
            n += 1
    assert n > 10_000, n


def test_element_addresses_are_cutes():
    """Where CuTe's tensor puts each 16-byte chunk of the first instruction's operand is where our reading of the
    descriptor puts it."""
    n = 0
    for f, addrs in table("e"):
        arch, spelled, slice_mn, addr = operand(f)
        d = swz.Descriptor.of(spelled, arch, addr, mma_mn=slice_mn)
        major, elem = f[1], ELEM[f[3]]
        chunk, kstep = 128 // int(f[3]), 256 // int(f[3])
        if major == "MN":
            ours = [d.element_address(c * chunk, k, major, elem) for k in range(kstep) for c in range(slice_mn // chunk)]
        else:
            ours = [d.element_address(m, c * chunk, major, elem) for m in range(16) for c in range(kstep // chunk)]
        assert ours == [int(a, 16) for a in addrs], f
        n += len(addrs)
    assert n > 2000, n


def test_instruction_descriptors_are_cutes():
    n = 0
    for f, descs in table("i"):
        a, b, c, m, step, am, bm = f
        for i, bits in enumerate(descs):
            spelled = f"{a}:{b}:{c}:{m}x{int(step) * (i + 1)}:{am}:{bm}"
            d = swz.InstrDesc(spelled)
            assert d.encode() == int(bits, 16), spelled
            assert swz.InstrDesc.decode(int(bits, 16), kind=d.kind, cta_group=d.cta_group) == d
            assert str(d).startswith(spelled)
            assert swz.check_idesc(int(bits, 16), spelled).matches
            n += 1
    assert n > 500, n


def test_instr_desc_fields():
    d = swz.InstrDesc("bf16:bf16:f32:128x256:K:K")
    assert (d.a, d.b, d.d, d.m, d.n, d.k, d.kind, d.a_major, d.cta_group) == ("bf16", "bf16", "f32", 128, 256, 16, "f16", "K", 1)
    assert (d.tmem_columns, d.tmem_alloc_columns, d.rows_per_cta) == (256, 256, 128)
    # The PTX table: D type bit 4, A type bits 7-9, B bits 10-12, N >> 3 at 17, M >> 4 at 24.
    assert int(d) == 1 << 4 | 1 << 7 | 1 << 10 | (256 >> 3) << 17 | (128 >> 4) << 24
    pair = swz.InstrDesc("e4m3:e4m3:f32:256x256:K:MN")
    assert (pair.cta_group, pair.rows_per_cta, pair.kind, pair.k, repr(pair)) == (
        2, 128, "f8f6f4", 32, 'InstrDesc("e4m3:e4m3:f32:256x256:K:MN")')
    assert str(swz.InstrDesc("f16:f16:f32:128x64:K:K:2")) == "f16:f16:f32:128x64:K:K:2"
    assert swz.InstrDesc("tf32:tf32:f32:64x8:K:K").tmem_alloc_columns == 32
    # Type codes are the kind's: code 0 is f16 under kind::f16 and e4m3 under kind::f8f6f4.
    assert swz.InstrDesc.decode(0x08400010).a == "f16"
    assert swz.InstrDesc.decode(0x08400010, kind="f8f6f4").a == "e4m3"


def test_descriptor_values():
    d = swz.Descriptor("sm_100", 0x400, 16, 1024, "SW128")
    assert d.encode() == 0x4000_4040_0001_0040 and hex(d) == "0x4000404000010040"
    assert (d.arch, d.layout, d.layout_words, d.period, d.swizzle) == ("sm_100", "SW128", "128-byte swizzle", 1024, swz.Swizzle(3, 4, 3))
    assert repr(d) == 'Descriptor("sm_100", 0x400, 16, 1024, "SW128")'
    assert swz.Descriptor("sm_90", 0x480, 16, 1024, "SW128").needed_base_offset == 1
    assert swz.Descriptor.of("SW128A32:bf16:MN:128x64", "sm_100").sbo == 512
    assert swz.Descriptor.of(swz.OperandTile("SW128", "bf16", "K", 128, 64), start=0x400) == swz.Descriptor.decode(
        swz.OperandTile("SW128", "bf16", "K", 128, 64).descriptor(0x400))
    # An sm_100 descriptor read as sm_90 (and back): the fields print, the problems are named.
    assert swz.Descriptor.problems(d.encode(), "sm_90") == ["bits 46-48 are reserved and must be 0"]
    assert swz.Descriptor.fields(d.encode(), "sm_90").sbo == 1024
    assert swz.Descriptor.problems(d.encode(), "sm_100") == []


# The layout bugs kernels have shipped, each caught with its named reason; the fixed value passes.
A = "SW128:bf16:K:64x64"


def good(arch="sm_90"):
    return swz.Descriptor.of(A, arch, 0x400)


def one(r):
    assert not r and r.verdict and len(r.mismatches) == 1, r.mismatches
    return r.mismatches[0]


def tma(**kw):
    args = dict(dtype="bf16", dims=[4096, 4096], strides=[8192], box_dim=[64, 64], swizzle="128B", smem=0x400)
    args.update(kw)
    return swz.check_tma(A, **args)


@pytest.mark.parametrize("narrow", ["32B", "64B", "CU_TENSOR_MAP_SWIZZLE_64B"])
def test_map_swizzle_narrower_than_the_kernel_assumes(narrow):
    assert tma().matches and str(tma()) == "matches\n"
    span = 32 if "32" in narrow else 64
    r = tma(swizzle=narrow, box_dim=[span // 2, 64])
    assert r.mismatches[0].startswith("mode: the map swizzles") and "128B" in r.mismatches[0]
    assert r.reasons[0] == "mode: the map's swizzle is not the tile's"
    layout = "SW32" if span == 32 else "SW64"
    d = swz.Descriptor("sm_90", 0x400, 16, 1024, layout)
    assert d.check(A).mismatches[0].startswith("mode: the descriptor says")


def test_destination_aligned_to_128_not_1024():
    line = one(tma(smem=0x480))
    assert line.startswith("alignment:") and "1024" in line
    assert tma(smem=0x800).matches
    for arch in ["sm_90", "sm_100"]:
        g = good(arch)
        bad = swz.Descriptor(arch, 0x480, g.lbo, g.sbo, g.layout)
        line = one(swz.check_desc(bad.encode(), A, arch))
        assert line.startswith("alignment:") and "base offset 1" in line
        assert swz.check_desc(g.encode(), A, arch).matches
        assert swz.Descriptor(arch, 0x480, g.lbo, g.sbo, g.layout, base_offset=1).check(A).matches


def test_swizzle_on_relative_instead_of_absolute_addresses():
    g = good()
    line = one(swz.Descriptor("sm_90", 0x2200, g.lbo, g.sbo, g.layout).check(A))
    assert "row 4 of the swizzle pattern" in line
    assert swz.Descriptor("sm_90", 0x2400, g.lbo, g.sbo, g.layout).check(A).matches


def test_k_panel_stride_from_the_extent():
    b = "SW128:bf16:MN:128x64"
    fixed = swz.Descriptor.of(b, "sm_90", 0x400)
    assert fixed.lbo == 8192 and fixed.check(b).matches
    line = one(swz.Descriptor("sm_90", 0x400, 256, fixed.sbo, "SW128").check(b))
    assert line.startswith("stride: LBO is 256 B, the tile's is 8192 B") and "not the extent" in line
    n = "NONE:bf16:K:64x64"
    fixed = swz.Descriptor.of(n, "sm_100", 0x400)
    assert fixed.check(n).matches
    r = swz.Descriptor("sm_100", 0x400, 64 * 2, fixed.sbo, "NONE").check(n)
    assert one(r).startswith("stride: LBO") and r.reasons == ["stride: LBO/SBO is not the tile layout's"]


def test_strides_in_bytes_not_16_byte_units():
    g = good().encode()
    bad = g & ~(0x3FFF << 32) | 1024 << 32
    r = swz.check_desc(bad, A)
    assert one(r) == "units: SBO reads as 16384 B, 16 times the tile's 1024 B: the field holds the byte count; write 1024 >> 4 = 64"
    assert r.reasons == ["units: LBO/SBO written in bytes instead of 16-byte units"]
    assert r.verdict == "the descriptor does not match the operand: 1 mismatch"
    assert swz.check_desc(g, A).matches
    # The LBO 0 vs 16 question: a swizzled K-major operand never takes LBO.
    for lbo in [0, 16, 4096]:
        assert swz.Descriptor("sm_90", 0x400, lbo, 1024, "SW128").check(A).matches, lbo


def test_overlapping_instruction_fields_and_version_bits():
    meant = swz.InstrDesc("bf16:bf16:f32:128x256:K:K")
    fixed = meant.encode()
    assert swz.check_idesc(fixed, meant).matches
    # M >> 4 written one bit low (at bit 23): M = 128 reads as M = 64, a legal shape; the field is named.
    bad = fixed & ~(0x1F << 24) | (128 >> 4) << 23
    r = swz.check_idesc(bad, "bf16:bf16:f32:128x256:K:K")
    assert one(r).startswith("M (bits 24-28): the descriptor encodes bf16:bf16:f32:64x256:K:K") and r.reasons == ["M (bits 24-28)"]
    # For M = 64 it reads M = 32, which no instruction has.
    m64 = swz.InstrDesc("bf16:bf16:f32:64x256:K:K").encode()
    with pytest.raises(swz.SwizzleError, match="M = 32 with cta_group::1: one CTA takes M = 64 or 128"):
        swz.InstrDesc.decode(m64 & ~(0x1F << 24) | (64 >> 4) << 23)
    with pytest.raises(swz.SwizzleError, match=r"bit 23 is reserved and must be 0 \(a field overlaps it\)"):
        swz.InstrDesc.decode(fixed | 1 << 23)
    # A Hopper descriptor handed to tcgen05, and back.
    r = swz.check_desc(good("sm_90").encode(), A, "sm_100")
    assert not r and "bits 46-48 (version) are 0" in r.verdict and str(r) == ""
    r = swz.check_desc(good("sm_100").encode(), A, "sm_90")
    assert r.reasons == ["bits 46-48 are reserved and must be 0"] and r.verdict.endswith('(its version bits say sm_100: arch="sm_100")')
    with pytest.raises(swz.SwizzleError, match="is not a valid sm_100 descriptor: bits 46-48 .version. are 0"):
        swz.Descriptor.decode(good("sm_90").encode(), "sm_100")


def test_cta_group_mismatches():
    m256 = swz.InstrDesc("f16:f16:f32:256x128:K:K").encode()
    with pytest.raises(swz.SwizzleError, match="M = 256 with cta_group::1"):
        swz.InstrDesc.decode(m256, cta_group=1)
    assert swz.InstrDesc.decode(m256).cta_group == 2
    r = swz.check_idesc(m256, "f16:f16:f32:128x128:K:K")
    assert not r and "M = 256 with cta_group::1" in r.verdict
    m64 = swz.InstrDesc("f16:f16:f32:64x128:K:K").encode()
    with pytest.raises(swz.SwizzleError, match="M = 64 with cta_group::2: a CTA pair takes M = 128 or 256"):
        swz.InstrDesc.decode(m64, cta_group=2)
    n24 = swz.InstrDesc("f16:f16:f32:128x24:K:K").encode()
    assert swz.InstrDesc.decode(n24).n == 24
    with pytest.raises(swz.SwizzleError, match="N = 24 with cta_group::2"):
        swz.InstrDesc.decode(n24, cta_group=2)
    with pytest.raises(swz.SwizzleError, match="mma: M = 256 with cta_group::1"):
        swz.InstrDesc("f16:f16:f32:256x128:K:K:1")


def test_the_other_majors_strides():
    t, mn = "NONE:f16:K:64x64", "NONE:f16:MN:64x64"
    d = swz.Descriptor.of(mn, "sm_90", 0x800)
    r = d.check(t)
    assert one(r).startswith("major-ness:") and r.reasons == ["major-ness: LBO/SBO describe the other major"]
    assert swz.Descriptor.of(t, "sm_90", 0x800).check(t).matches


def test_box_vs_swizzle_span():
    assert any(m.startswith("box vs swizzle span: the inner box is 256 bytes, over the 128-byte") for m in tma(box_dim=[128, 64]).mismatches)
    assert one(tma(box_dim=[32, 64])) == "box vs swizzle span: the inner box is 32 elements, the tile's swizzled row is 64"
    assert one(tma(strides=[8200])).startswith("stride:")
    r = tma(dtype="f32", box_dim=[32, 64], strides=[16384])
    assert r.mismatches[0] == "units: the map's elements are 4 bytes, the tile's 2"
    assert r.reasons[0] == "units: the map's element size is not the tile's"


def test_blackwell_32_byte_atoms():
    op = "SW128A32:bf16:MN:128x64"
    d = swz.Descriptor.of(op, "sm_100", 0x2400, mma_mn=64)
    assert d.sbo == 512 and d.layout == "SW128A32" and d.check(op, 64).matches
    assert swz.Descriptor.decode(d.encode(), "sm_100") == d
    r = swz.Descriptor("sm_100", d.start, d.lbo, d.sbo, "SW128").check(op, 64)
    assert r.mismatches[0].startswith("mode:")
    r = swz.Descriptor("sm_100", d.start, d.lbo, 1024, "SW128A32").check(op, 64)
    assert r.mismatches[0].startswith("stride: SBO is 1024 B, the tile's is 512 B")
    kw = dict(dtype="bf16", dims=[4096, 4096], strides=[8192], box_dim=[64, 64], smem=0x2400)
    assert swz.check_tma(op, swizzle="128B_ATOM_32B", **kw).matches
    assert swz.check_tma(op, swizzle="128B", **kw).reasons[0] == "mode: the map's swizzle is not the tile's"
    with pytest.raises(swz.SwizzleError, match="operand SW128A32:bf16:MN:128x64: "):
        swz.check_desc(d.encode(), op, "sm_90")
    with pytest.raises(swz.SwizzleError, match="operand SW128A32:bf16:K:128x64: "):
        swz.check_desc(d.encode(), "SW128A32:bf16:K:128x64", "sm_100")
    with pytest.raises(swz.SwizzleError, match="layout: SW128A32"):
        swz.Descriptor("sm_90", 0, 16, 512, "SW128A32")
