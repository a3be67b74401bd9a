"""Bad input from Python: the spellings the CLI's tests feed `swz` (read from swizzle-cli/tests, so a spelling added
there is tried here too) get the CLI's verdict and its one-line reason; Python values of every wrong kind get a
`SwizzleError` or a `TypeError`, never a crash, a hang or a Rust panic."""

import math

import numpy as np
import pytest

import swz
from conftest import cli_error, run_swz, rust_str_list

FUZZ = "swizzle-cli/tests/cli_grammar_fuzz.rs"
NUMBERS = rust_str_list(FUZZ, "NUMBERS")
SWIZZLES = rust_str_list(FUZZ, "SWIZZLES")
ORDERS = rust_str_list(FUZZ, "ORDERS")
ELEMS = rust_str_list(FUZZ, "ELEMS")
PATTERNS = rust_str_list(FUZZ, "PATTERNS")

SPELLED = sorted(set(SWIZZLES + [f"{n},3,3" for n in NUMBERS] + [f"3,{n},3" for n in NUMBERS] + [f"3,3,{n}" for n in NUMBERS]
                     + [f"Sw<1,6,{n}>+3,3,5" for n in NUMBERS]))


def same_verdict(code, err, flag, param, call):
    """`swz` exit 0 <=> the call returns; exit 2 <=> SwizzleError with the CLI's reason."""
    if code == 0 or code == 1:
        return call()
    assert code == 2, err
    with pytest.raises(swz.SwizzleError) as e:
        call()
    assert str(e.value) == cli_error(err, flag, param)
    return None


@pytest.mark.parametrize("spelling", SPELLED)
def test_swizzle_spellings(spelling):
    code, out, err = run_swz("apply", "--swizzle", spelling, "--range", "0..64")
    f = same_verdict(code, err, "--swizzle", "swizzle", lambda: swz.Swizzle.parse(spelling))
    if f is not None:
        assert out.split() == [str(f.apply(o)) for o in range(64)]


@pytest.mark.parametrize("number", NUMBERS)
def test_numbers_as_python_ints(number):
    """The CLI's number spellings that are decimal integers, as Python ints: the same verdict and reason."""
    if not number.lstrip("-").isdigit():
        # Not an int in Python either: refused by type, never parsed.
        with pytest.raises(TypeError):
            swz.Swizzle(number, 3, 3)
        return
    n = int(number)
    for pos, spelled in enumerate([f"{number},3,3", f"3,{number},3", f"3,3,{number}"]):
        code, _, err = run_swz("apply", "--swizzle", spelled, "--range", "0..4")
        args = [3, 3, 3]
        args[pos] = n
        same_verdict(code, err, "--swizzle: ", "", lambda: swz.Swizzle(*args))


@pytest.mark.parametrize("order", ORDERS)
def test_order_spellings(order):
    code, out, err = run_swz("raster", "--order", order, "--grid", "4x4")
    tiles = same_verdict(code, err, "--order", "order", lambda: swz.Raster(order).order((4, 4)))
    if tiles is not None:
        assert out.splitlines() == [f"{b} {t[0]} {t[1]}" if t else f"{b} - -" for b, t in enumerate(tiles)]


@pytest.mark.parametrize("elem", ELEMS)
def test_elem_spellings(elem):
    code, out, err = run_swz("check", "--tile", "64x64", "--elem", elem, "--pattern", "row16")
    r = same_verdict(code, err, "--elem", "elem", lambda: swz.check("64x64", ["row16"], elem=elem))
    if r is not None:
        assert str(r) == out


@pytest.mark.parametrize("pattern", PATTERNS)
def test_pattern_spellings(pattern):
    code, out, err = run_swz("check", "--tile", "64x64", "--elem", "f16", "--pattern", pattern)
    r = same_verdict(code, err, "--pattern", "pattern", lambda: swz.check("64x64", [pattern], elem="f16"))
    if r is not None:
        assert str(r) == out


@pytest.mark.parametrize("tile", ["64", "-1x4", "0x64", "64x0", "3037000500x3037000500", "16384x16384", "64x64x64", "x", "", " 8 X 64", "4294967296x1"])
def test_tile_spellings(tile):
    code, out, err = run_swz("check", "--tile", tile, "--elem", "f16", "--pattern", "row16")
    if "unexpected argument" in err:
        # The command line's own parser takes `-1x4` for a flag; Python has no flags to confuse it with.
        with pytest.raises(swz.SwizzleError, match="must be >= 0"):
            swz.check(tile, ["row16"], elem="f16")
        return
    r = same_verdict(code, err, "--tile", "tile", lambda: swz.check(tile, ["row16"], elem="f16"))
    if r is not None:
        assert str(r) == out


class Weird:
    def __index__(self):
        raise RuntimeError("no index for you")

    def __str__(self):
        raise RuntimeError("no str either")


HOSTILE = [None, True, 1.5, math.nan, math.inf, -1, 2**32, 2**64, -(2**63), 10**400, "3", "", "\x00", "\udcff", "a" * 1_000_000,
           b"3", [], [3, 3, 3], (), {}, object(), Weird(), np.int64(-1), np.float32(3), np.array([1, 2]), np.bool_(True)]


def refuses(call):
    """A clear exception of ours or Python's type check, nothing else (no PanicException, no crash)."""
    try:
        call()
    except (swz.SwizzleError, TypeError):
        return
    except BaseException as e:  # noqa: BLE001 - a Rust panic surfaces as PanicException (a BaseException)
        pytest.fail(f"{type(e).__name__}: {e}")


TMA = dict(dtype="bf16", dims=[4096, 4096], strides=[8192], box_dim=[64, 128], swizzle="128B", smem=0x400)

ENTRY_POINTS = [
    lambda v: swz.Swizzle(v, 3, 3),
    lambda v: swz.Swizzle(3, v, 3),
    lambda v: swz.Swizzle(3, 3, v),
    lambda v: swz.Swizzle.parse(v),
    lambda v: swz.Swizzle.mode(v),
    lambda v: swz.Swizzle.mode("SW128", unit=v),
    lambda v: swz.Swizzle.from_cute(v),
    lambda v: swz.Swizzle.from_triton(v, 1, 8, 64),
    lambda v: swz.Swizzle.from_triton(8, 1, 8, v),
    lambda v: swz.Swizzle.from_absolute(3, v, 7),
    lambda v: swz.Swizzle(3, 3, 3).to_triton(v),
    lambda v: swz.Swizzle(3, 3, 3).to_bytes(v),
    lambda v: swz.Swizzle(3, 3, 3).byte_mode(v),
    lambda v: swz.Swizzle(3, 3, 3).then(v),
    lambda v: swz.Composed(v, swz.Swizzle(3, 3, 3)),
    lambda v: swz.Smem(v, 64),
    lambda v: swz.Smem(64, 64, v),
    lambda v: swz.Smem(64, 64, "f16", v),
    lambda v: swz.Smem(64, 64, "f16", pad=v),
    lambda v: swz.Smem(64, 64, "f16", "3,3,3").byte_addr(v, 0),
    lambda v: swz.Smem.parse(v),
    lambda v: swz.check(v, ["row16"]),
    lambda v: swz.check("64x64", v),
    lambda v: swz.check("64x64", [v]),
    lambda v: swz.check("64x64", ["row16"], elem=v),
    lambda v: swz.check("64x64", ["row16"], swizzle=v),
    lambda v: swz.check("64x64", ["row16"], swizzle="3,3,3", then=v),
    lambda v: swz.synth(v, ["row16"]),
    lambda v: swz.synth("64x64", v),
    lambda v: swz.wavefronts(v, [0] * 32),
    lambda v: swz.wavefronts("lds32", v),
    lambda v: swz.wavefronts("lds32", [v] * 32),
    lambda v: swz.Raster(v),
    lambda v: swz.Raster("strip", tile=v),
    lambda v: swz.Raster("strip:4").tile_of(v, (4, 4)),
    lambda v: swz.Raster("strip:4").tile_of(0, v),
    lambda v: swz.Raster("strip:4").order(v),
    lambda v: swz.Raster("strip:4").order((4, 4), limit=v),
    lambda v: swz.Header().swizzle(v, "3,3,3"),
    lambda v: swz.Header().swizzle("A", v),
    lambda v: swz.Header().raster("A", v),
    lambda v: swz.Header().layout("A", v),
    lambda v: swz.Header().guard(v),
    lambda v: swz.Header().operand(v, swz.OperandTile("SW128", "bf16", "K", 128, 64)),
    lambda v: swz.OperandTile(v, "bf16", "K", 128, 64),
    lambda v: swz.OperandTile("SW128", v, "K", 128, 64),
    lambda v: swz.OperandTile("SW128", "bf16", v, 128, 64),
    lambda v: swz.OperandTile("SW128", "bf16", "K", v, 64),
    lambda v: swz.OperandTile("SW128", "bf16", "K", 128, 64).descriptor(v),
    lambda v: swz.OperandTile("SW128", "bf16", "K", 128, 64).k_step_bytes(v),
    lambda v: swz.OperandTile("SW128", "bf16", "K", 128, 64).byte_of(v, 0),
    lambda v: swz.OperandTile("SW128", "bf16", "K", 128, 64).cuda_struct(v),
    lambda v: swz.encode_descriptor(v, 16, 1024, 0, 1),
    lambda v: swz.decode_descriptor(v),
    lambda v: swz.Descriptor(v, 0x400, 16, 1024, "SW128"),
    lambda v: swz.Descriptor("sm_100", v, 16, 1024, "SW128"),
    lambda v: swz.Descriptor("sm_100", 0x400, v, 1024, "SW128"),
    lambda v: swz.Descriptor("sm_100", 0x400, 16, v, "SW128"),
    lambda v: swz.Descriptor("sm_100", 0x400, 16, 1024, v),
    lambda v: swz.Descriptor("sm_100", 0x400, 16, 1024, "SW128", base_offset=v),
    lambda v: swz.Descriptor("sm_100", 0x400, 16, 1024, "SW128", lbo_absolute=v),
    lambda v: swz.Descriptor.decode(v),
    lambda v: swz.Descriptor.decode(0x4000004000010040, v),
    lambda v: swz.Descriptor.fields(v, "sm_100"),
    lambda v: swz.Descriptor.problems(v, "sm_100"),
    lambda v: swz.Descriptor.of(v),
    lambda v: swz.Descriptor.of("SW128:bf16:K:128x64", v),
    lambda v: swz.Descriptor.of("SW128:bf16:K:128x64", "sm_90", v),
    lambda v: swz.Descriptor.of("SW128:bf16:K:128x64", "sm_90", 0, v),
    lambda v: swz.Descriptor.decode(0x4000004000010040).check(v),
    lambda v: swz.Descriptor.decode(0x4000004000010040).check("SW128:bf16:K:128x64", v),
    lambda v: swz.Descriptor.decode(0x4000004000010040).element_address(v, 0),
    lambda v: swz.Descriptor.decode(0x4000004000010040).element_address(0, v),
    lambda v: swz.Descriptor.decode(0x4000004000010040).element_address(0, 0, v),
    lambda v: swz.Descriptor.decode(0x4000004000010040).element_address(0, 0, "K", v),
    lambda v: swz.InstrDesc(v),
    lambda v: swz.InstrDesc.decode(v),
    lambda v: swz.InstrDesc.decode(0x08400490, v),
    lambda v: swz.InstrDesc.decode(0x08400490, "f16", v),
    lambda v: swz.check_desc(v, "SW128:bf16:K:128x64"),
    lambda v: swz.check_desc(0x4000004000010040, v),
    lambda v: swz.check_desc(0x4000004000010040, "SW128:bf16:K:128x64", v),
    lambda v: swz.check_desc(0x4000004000010040, "SW128:bf16:K:128x64", "sm_90", v),
    lambda v: swz.check_idesc(v, "bf16:bf16:f32:128x256:K:K"),
    lambda v: swz.check_idesc(0x08400490, v),
    lambda v: swz.check_tma(v, **TMA),
    *[lambda v, k=k: swz.check_tma("SW128:bf16:K:128x64", **{**TMA, k: v}) for k in ["dtype", "dims", "strides", "box_dim", "swizzle", "smem", "interleave"]],
    lambda v: swz.check_tma("SW128:bf16:K:128x64", **{**TMA, "dims": [4096, v]}),
    lambda v: swz.check_tma("SW128:bf16:K:128x64", **{**TMA, "box_dim": [v, 128]}),
]


@pytest.mark.parametrize("entry", range(len(ENTRY_POINTS)))
def test_hostile_python_values(entry):
    for v in HOSTILE:
        try:
            ENTRY_POINTS[entry](v)
        except (swz.SwizzleError, TypeError):
            pass
        except BaseException as e:  # noqa: BLE001
            pytest.fail(f"entry {entry} with {v!r:.60}: {type(e).__name__}: {e}")


def test_hostile_arrays():
    sw = swz.Swizzle(3, 3, 3)
    for a in [np.array([1.5]), np.array([-1, 2]), np.array([2**32], dtype=np.uint64), np.array(["a"]), np.array([True]),
              np.array([object()]), [[1, 2], [3]], "123", np.array([1 + 2j])]:
        refuses(lambda: sw.apply(a))
    assert sw.apply(np.array([[64]], dtype=np.int8)).tolist() == [[72]]
    assert sw.apply(np.uint64(64)) == 72
    assert sw.apply(np.arange(2**20)).shape == (2**20,)


OPERAND = "SW128:bf16:K:128x64"
OPERAND_SPELLINGS = sorted(set(
    [f"{sw}:bf16:K:128x64" for sw in SWIZZLES] + [f"SW128:{e}:K:128x64" for e in ELEMS] + [f"SW128:bf16:K:{n}x64" for n in NUMBERS]
    + [f"SW128:bf16:K:128x{n}" for n in NUMBERS] + [f"SW128A32:bf16:{m}:128x64" for m in ["MN", "K", "mn", "", "MNK"]]
    + ["", ":", ":::", "SW128:bf16:K", "SW128:bf16:K:128x64:1", "SW128:bf16:K:128x48", "SW128:bf16:K:4294967296x64",
       "SW128:bf16:K:128X64", " SW128 : bf16 : K : 128x64 ", "SW64:f64:MN:64x64", "SW128:u8:MN:128x128"]))


@pytest.mark.parametrize("spelled", OPERAND_SPELLINGS)
@pytest.mark.parametrize("arch", ["sm_90", "sm_100"])
def test_operand_spellings(spelled, arch):
    """`swz check desc --operand` and `check_desc(operand=...)`: the same verdict, the same reason."""
    code, out, err = run_swz("check", "desc", "0x4000004000010040", "--operand", spelled, "--arch", arch)
    if "unexpected argument" in err or "a value is required" in err:
        return  # the command line's own parser took the spelling for a flag
    r = same_verdict(code, err, "--operand", "operand", lambda: swz.check_desc(0x4000004000010040, spelled, arch))
    if r is not None:
        assert (str(r), r.matches) == (out, code == 0)


@pytest.mark.parametrize("arch", ["sm_80", "sm_100a", "SM_90", " sm_90 ", "", "sm_90a ", "sm_1000", "sm_110f", "hopper"])
def test_arch_spellings(arch):
    code, out, err = run_swz("decode", "desc", "0x4000004000010040", "--arch", arch)
    d = same_verdict(code, err, "--arch", "arch", lambda: swz.Descriptor.fields(0x4000004000010040, arch))
    if d is not None:
        assert f"start address   {d.start:#x}" in out


MMA_SPELLINGS = sorted(set(
    [f"bf16:bf16:f32:{n}x256:K:K" for n in NUMBERS] + [f"bf16:bf16:f32:128x{n}:K:K" for n in NUMBERS]
    + [f"{e}:{e}:f32:128x64:K:K" for e in ELEMS]
    + ["", "bf16", "bf16:bf16:f32:128x256:K", "bf16:bf16:f32:128x256:K:K:3", "bf16:bf16:f32:128x256:K:K:1:1", "bf16:e4m3:f32:128x64:K:K",
       "tf32:tf32:f16:128x64:K:K", "e2m1:e2m1:f32:128x64:MN:K", "bf16:bf16:f64:128x64:K:K", "bf16:bf16:f32:128*64:K:K",
       "bf16:bf16:f32:256x256:K:K:1", "bf16:bf16:f32:64x64:K:K:2", "bf16:bf16:f32:128x24:K:K:2", "bf16:bf16:f32:128x64:k:k"]))


@pytest.mark.parametrize("spelled", MMA_SPELLINGS)
def test_mma_spellings(spelled):
    code, out, err = run_swz("check", "idesc", "0x08400490", "--mma", spelled)
    if "unexpected argument" in err or "a value is required" in err:
        return
    r = same_verdict(code, err, "--mma", "mma", lambda: swz.check_idesc(0x08400490, spelled))
    if r is not None:
        assert (str(r), r.matches) == (out, code == 0)


@pytest.mark.parametrize("flag,param,value", [
    ("--swizzle", "swizzle", v) for v in ["256B", "sw128", "SW128", "128b", "7", "3", "CU_TENSOR_MAP_SWIZZLE_256B", "", "SW128A32"]
] + [("--interleave", "interleave", v) for v in ["64B", "16B", "none", "2", ""]] + [("--dtype", "dtype", v) for v in ELEMS + ["bf17", ""]])
def test_tma_spellings(flag, param, value):
    args = {"--swizzle": "128B", "--interleave": "NONE", "--dtype": "bf16", flag: value}
    code, out, err = run_swz("check", "tma", "--dims", "4096,4096", "--strides", "8192", "--box", "64,128", "--smem", "0x400",
                             "--operand", OPERAND, *[a for kv in args.items() for a in kv])
    if "unexpected argument" in err or "a value is required" in err:
        return
    kw = {**TMA, "interleave": args["--interleave"], "swizzle": args["--swizzle"], "dtype": args["--dtype"]}
    r = same_verdict(code, err, flag, param, lambda: swz.check_tma(OPERAND, **kw))
    if r is not None:
        assert (str(r), r.matches) == (out, code == 0)


@pytest.mark.parametrize("dims,strides,box", [([4096, 4096, 4096], [8192], [64, 128, 1]), ([1] * 6, [16] * 5, [1] * 6), ([64, 64], [128, 2], [64, 8]),
                                             ([64, 64], [128], [64]), ([2**64 - 1] * 2, [2**64 - 1], [2**32 - 1] * 2),
                                             ([64, 64, 64, 64, 64], [128, 8192, 2**19, 2**25], [64, 8, 1, 1, 2])])
def test_tma_extents(dims, strides, box):
    code, out, err = run_swz("check", "tma", "--dtype", "bf16", "--dims", ",".join(map(str, dims)), "--strides", ",".join(map(str, strides)),
                             "--box", ",".join(map(str, box)), "--swizzle", "128B", "--smem", "0x400", "--operand", OPERAND)
    kw = {**TMA, "dims": dims, "strides": strides, "box_dim": box}
    flag = err.split(":")[1].strip() if code == 2 else None
    r = same_verdict(code, err, flag, flag and flag.removeprefix("--").replace("box", "box_dim"), lambda: swz.check_tma(OPERAND, **kw))
    if r is not None:
        assert (str(r), r.matches) == (out, code == 0)


def test_descriptor_values_out_of_range():
    for call, needle in [
        (lambda: swz.Descriptor.decode(2**64), "bits: 18446744073709551616 is not a 64-bit value"),
        (lambda: swz.Descriptor.decode(-1), "bits: -1 is not a 64-bit value"),
        (lambda: swz.InstrDesc.decode(2**32), "bits: 4294967296 is not a 32-bit value"),
        (lambda: swz.check_idesc(2**40, "bf16:bf16:f32:128x256:K:K"), "is not a 32-bit value"),
        (lambda: swz.Descriptor.decode(10**400), "an integer of 401 digits"),
        (lambda: swz.Descriptor("sm_90", 1 << 18, 16, 1024, "SW128"), "past the descriptor's 18-bit byte range"),
        (lambda: swz.Descriptor("sm_90", 0, 16, 1024, "SW128", base_offset=8), "does not fit bits 49-51"),
        (lambda: swz.Descriptor("sm_90", 0, 16, 1024, "SW128", lbo_absolute=True), "lbo_absolute: the LBO mode (bit 52) is sm_100's"),
        (lambda: swz.Descriptor("sm_90", 0, 16, 1024, "SW256"), 'layout: "SW256" is not a descriptor layout'),
        (lambda: swz.Descriptor.decode(0x4000004000010040).element_address(256, 0), "outside one instruction's operand"),
        (lambda: swz.Descriptor.decode(0x4000004000010040).element_address(0, 16), "outside one instruction's operand"),
        (lambda: swz.Descriptor.decode(0x4000004000010040).element_address(0, 0, "K", "f64"), "not an MMA operand's"),
        (lambda: swz.check_desc(0x4000004000010040, OPERAND, mma_mn=12), "mma_mn: 12 is not a multiple of 8 within the tile's MN = 128"),
        (lambda: swz.check_tma(OPERAND, **{**TMA, "dims": range(10**9)}), "dims: more than 64 values"),
        (lambda: swz.InstrDesc.decode(0x08400490, cta_group=3), "cta_group: expected 1 or 2, got 3"),
        (lambda: swz.InstrDesc.decode(0x08400490, kind="f64"), 'kind: expected f16, tf32 or f8f6f4, got "f64"'),
    ]:
        with pytest.raises(swz.SwizzleError) as e:
            call()
        assert needle in str(e.value) and "\n" not in str(e.value), (needle, str(e.value))
    import itertools

    with pytest.raises(swz.SwizzleError, match="more than 64 values"):
        swz.check_tma(OPERAND, **{**TMA, "strides": itertools.count(16, 16)})
    with pytest.raises(TypeError):
        swz.check_tma(OPERAND, **{**TMA, "dims": "4096,4096"})
    # One dimension (no strides, which the command line cannot spell): a finding, not an error.
    assert swz.check_tma(OPERAND, **{**TMA, "dims": [4096], "strides": [], "box_dim": [64]}).mismatches[0] == "rank: 1 dimensions (2 to 5)"


def test_messages_are_one_line():
    for call in [lambda: swz.Swizzle(3, 3, 2), lambda: swz.Swizzle.parse("3,3,3++3,3,3"), lambda: swz.check("64x64", ["nope"]),
                 lambda: swz.Raster("zigzag"), lambda: swz.Header().swizzle("__x", "3,3,3"), lambda: swz.wavefronts("lds128", [8] * 32)]:
        with pytest.raises(swz.SwizzleError) as e:
            call()
        assert "\n" not in str(e.value) and str(e.value)


def test_huge_work_is_bounded():
    with pytest.raises(swz.SwizzleError, match="more than 1048576"):
        swz.Raster("identity").order((65535, 65535))
    assert len(swz.Raster("identity").order((65535, 65535), limit=10)) == 10
    with pytest.raises(swz.SwizzleError, match="shared memory holds at most"):
        swz.check("16384x16384", ["row16"])
    import itertools

    with pytest.raises(swz.SwizzleError, match="expected 32 addresses"):
        swz.wavefronts("lds32", itertools.count())
