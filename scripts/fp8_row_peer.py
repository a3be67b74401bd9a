#!/usr/bin/env python3
"""The per-row peer of `swz bench gemm --dtype e4m3 --scale row`: torch's row-wise scaled FP8 GEMM
(`torch._scaled_mm` with an fp32 scale per row of A, shape M x 1, and per row of B, 1 x N: per token x per output
channel, what serving stacks call for dynamically quantized activations) against torch's per-tensor one (cuBLASLt,
the peer `swz bench` measures in its own process) on the same e4m3 operands, in the same process. cuBLASLt (CUDA
13.0) refuses per-row scaling on the H100, so torch dispatches the row-wise call to a kernel of its own; this script
times whatever torch runs for it, which is what its users get.

Each contestant runs as a CUDA graph of at least 20 calls (one call from Python costs more than the GPU time of
these problems, so launches timed one by one measure the launch: 45-50 us where the kernel takes 11-15 us), the
operand sets rotated inside the graph so every call reads its weights from HBM (as `swz bench` does); a call's time
is a graph replay's, timed with CUDA events, over its calls. Interleaved rounds (row-wise, then per-tensor); the
ratio is the median of the per-round ratios per-tensor time / row-wise time. With --l2-resident every call of a
graph reuses one operand set (20 calls), so operands that fit stay in the L2: the decode condition of a layer run
again right after its weights were read (`swz bench gemm --dtype e4m3 --l2-resident` measures ours the same way). Chained with `swz bench`'s ours / cuBLASLt
per-tensor on the same shapes, it gives ours / torch row-wise. The row-wise result is checked first against the
fp64 product of the dequantized inputs (output poisoned first).

    python3 scripts/fp8_row_peer.py [--shapes 16x6144x4096,...] [--rounds 8] [--iters 10] [--check 1008x1536x2048]
                                    [--l2-resident]

The default shapes are the LLM layers at M = 16 and 128 (the decode and small-batch rows of the layer table).
"""
import argparse
import statistics
import sys

try:
    import torch
except ImportError as err:
    print(f"fp8_row_peer: needs torch with CUDA ({err})", file=sys.stderr)
    sys.exit(2)

E4M3 = torch.float8_e4m3fn
LAYERS = [(6144, 4096), (4096, 4096), (28672, 4096), (4096, 14336), (10240, 8192), (8192, 28672)]
DEFAULT_SHAPES = ",".join(f"{m}x{n}x{k}" for n, k in LAYERS for m in (16, 128))


def shape(text):
    """MxNxK, each a multiple of 16 (`torch._scaled_mm`)."""
    try:
        m, n, k = (int(v) for v in text.split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: expected MxNxK") from None
    if min(m, n, k) < 1 or m % 16 or n % 16 or k % 16:
        raise argparse.ArgumentTypeError(f"{text}: M, N and K must be positive multiples of 16")
    return m, n, k


def operands(m, n, k, gen):
    """Random e4m3 A (M x K) and B (N x K), never zero (normal values spread over the e4m3 range), and positive fp32
    scales per row of A (M x 1) and per row of B (1 x N)."""
    a = (torch.randn(m, k, device="cuda", generator=gen) * 64).clamp(-448, 448).to(E4M3)
    b = (torch.randn(n, k, device="cuda", generator=gen) * 64).clamp(-448, 448).to(E4M3)
    sa = torch.rand(m, 1, device="cuda", generator=gen) * 1.5e-3 + 5e-4
    sb = torch.rand(1, n, device="cuda", generator=gen) * 1.5e-3 + 5e-4
    return a, b, sa, sb


def row_wise(ops):
    a, b, sa, sb = ops
    return torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)


def per_tensor(ops):
    a, b, one, _ = ops
    return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)


def graph(fn, sets, calls):
    """A CUDA graph of `calls` calls of fn, cycling through the operand sets (warmed up on a side stream first, as
    capture wants)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for i in range(3):
            fn(sets[i % len(sets)])
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(calls):
            fn(sets[i % len(sets)])
    g.replay()
    torch.cuda.synchronize()
    return g


def median_call_ms(g, calls, iters):
    """The median over `iters` replays of one replay's time, per call."""
    g.replay()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for s, e in events:
        s.record()
        g.replay()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events) / calls


def check(m, n, k, gen):
    """Row-wise against the fp64 product of the dequantized inputs; bf16 rounding alone is 2^-9 per element."""
    a, b, sa, sb = operands(m, n, k, gen)
    ref = (a.double() * sa.double()) @ (b.double() * sb.double().T).T
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    out.copy_(row_wise((a, b, sa, sb)))
    err = out.double() - ref
    norm = (err.norm() / ref.norm()).item()
    worst = (err.abs().max() / ref.abs().max()).item()
    print(f"check {m}x{n}x{k}: torch row-wise vs fp64 of the dequantized inputs: normwise {norm:.2e}, "
          f"max |err| / max |ref| {worst:.2e}")
    if not norm < 1e-2:
        raise SystemExit("FAILED: row-wise result check")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", type=lambda t: [shape(s) for s in t.split(",")], default=DEFAULT_SHAPES,
                    help="MxNxK,...")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--iters", type=int, default=10, help="timed graph replays per round")
    ap.add_argument("--check", type=shape, default="1008x1536x2048", help="MxNxK of the result check")
    ap.add_argument("--l2-resident", action="store_true",
                    help="one operand set reused by every call (operands that fit stay in the L2)")
    a = ap.parse_args()
    if a.rounds < 1 or a.iters < 1:
        ap.error("--rounds and --iters must be at least 1")
    if not torch.cuda.is_available():
        ap.exit(2, "fp8_row_peer: no CUDA device\n")
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}  CUDA {torch.version.cuda}")
    gen = torch.Generator(device="cuda").manual_seed(1)
    check(*a.check, gen)

    rows = []
    one = torch.ones((), device="cuda")
    for m, n, k in a.shapes:
        set_bytes = m * k + n * k
        nsets = 1 if a.l2_resident else max(2, -(-4 * l2 // set_bytes))
        calls = nsets * -(-20 // nsets)
        made = [operands(m, n, k, gen) for _ in range(nsets)]
        graphs = [graph(row_wise, made, calls), graph(per_tensor, [(x, y, one, None) for x, y, _, _ in made], calls)]
        ms = [[] for _ in graphs]
        for _ in range(a.rounds):
            for times, g in zip(ms, graphs):
                times.append(median_call_ms(g, calls, a.iters))
        rw, pt = ms
        ratios = [t_pt / t_rw for t_rw, t_pt in zip(rw, pt)]
        print(f"{m}x{n}x{k}: {nsets} operand sets of {set_bytes / 2**20:.0f} MiB, graphs of {calls} calls; "
              f"per-round per-tensor / row-wise "
              + " ".join(f"{100 * r:.1f}%" for r in ratios))
        rows.append(((m, n, k), statistics.median(rw), statistics.median(pt), ratios))
        del made, graphs
        torch.cuda.empty_cache()

    print(f"\ntorch row-wise FP8 (torch._scaled_mm, M x 1 and 1 x N fp32 scales) against cuBLASLt per-tensor FP8 "
          f"(torch._scaled_mm, scalar scales), CUDA graphs of "
          f"{'one operand set (L2-resident where it fits)' if a.l2_resident else 'rotated operand sets'}, "
          f"{a.rounds} interleaved rounds of "
          f"{a.iters} timed replays each; times per call: median over rounds of each round's median; ratio: median "
          f"of the per-round ratios\n")
    print("| problem | row-wise µs | per-tensor µs | row-wise / per-tensor rate (range) |")
    print("|---|--:|--:|--:|")
    for (m, n, k), rw, pt, ratios in rows:
        print(f"| {m}x{n}x{k} | {rw * 1e3:.1f} | {pt * 1e3:.1f} | {100 * statistics.median(ratios):.1f}% "
              f"({100 * min(ratios):.1f}-{100 * max(ratios):.1f}%) |")


if __name__ == "__main__":
    main()
