"""The peer of `swz tune stencil`: torch.nn.functional.avg_pool1d(x, 2k+1, stride=1) (the k-stencil of fp32 x),
against a device-to-device copy of x measured in the same process, timed the same way (CUDA events around each
run, warm-up first, median). GB/s count n*4 read + (n-2k)*4 written; the copy 2*n*4.

    python3 scripts/stencil_torch_peer.py [--n 27] [--k 1,2,4,8,16] [--iters 50]
"""
import argparse
import statistics

import torch


def median_ms(fn, iters, warmup=3):
    for _ in range(warmup):
        fn()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for s, e in events:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=27, help="log2 of the size")
    ap.add_argument("--k", default="1,2,4,8,16")
    ap.add_argument("--iters", type=int, default=50)
    a = ap.parse_args()
    n = 1 << a.n
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.empty_like(x)
    copy_ms = median_ms(lambda: y.copy_(x), a.iters)
    copy_gbps = 2 * n * 4 / copy_ms / 1e6
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    print(f"torch avg_pool1d peer, n=2^{a.n} fp32; D2D copy (y.copy_(x)) = {copy_gbps:.0f} GB/s\n")
    print("| k | time (ms) | GB/s | % of D2D | max abs err vs sum/(2k+1) |")
    print("|--:|--:|--:|--:|--:|")
    x3 = x.view(1, 1, n)
    for k in [int(v) for v in a.k.split(",")]:
        w = 2 * k + 1
        f = lambda: torch.nn.functional.avg_pool1d(x3, w, stride=1)
        ms = median_ms(f, a.iters)
        out = f().view(-1)
        ref = x.unfold(0, w, 1)[: 1 << 20].double().mean(dim=1)
        err = (out[: 1 << 20].double() - ref).abs().max().item()
        assert out.numel() == n - 2 * k
        gbps = (n * 4 + (n - 2 * k) * 4) / ms / 1e6
        print(f"| {k} | {ms:.4f} | {gbps:.0f} | {100 * gbps / copy_gbps:.1f}% | {err:.1e} |")


if __name__ == "__main__":
    main()
