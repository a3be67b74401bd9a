"""The block-scaled peer of `swz tune hopper fp8-block`: DeepGEMM's `fp8_gemm_nt` (A e4m3 M x K with an fp32 scale
per 1 x 128, B e4m3 N x K with an fp32 scale per 128 x 128, promoted into fp32 every 128 of K, bf16 out) against
cuBLASLt's per-tensor FP8 GEMM (`torch._scaled_mm`, e4m3 TN, fast accumulation off, bf16 out; cuBLASLt refuses the
block modes on the H100 with CUDA 13.0) on the same e4m3 operands, in the same process. Interleaved rounds (DeepGEMM,
then cuBLASLt), each contestant warmed up then timed with CUDA events around each launch, operand sets rotated so
every launch reads from HBM; the ratio is the median of the per-round ratios cuBLASLt time / DeepGEMM time.
DeepGEMM is timed as called with N and K compiled in as constants (`compiled_dims="nk"`, DeepGEMM's shapes-as-constants
mode) and with every dimension at run time (`compiled_dims=""`, the `sgl-deep-gemm` wrapper's default).
DeepGEMM's result is checked first against the fp64 product of the dequantized inputs (output poisoned first).

Needs torch with CUDA and an importable `deep_gemm`: the Python registry's `sgl-deep-gemm` wheel, which is built
against one torch version and JIT-compiles its kernels with nvcc at first use. Unpack it and put it on PYTHONPATH
(`scripts/device.sh fp8-block-peer` does this with the wheels in $DG_WHEELS, default .devbin-dg/*.whl). With torch
2.11.0+cu130 the wheel that loads is sgl-deep-gemm 0.1.4.post1 with its dependency apache-tvm-ffi 0.1.11
(`pip download --no-deps sgl-deep-gemm==0.1.4.post1 apache-tvm-ffi==0.1.11` for the device's Python);
0.2.5 is built against a later torch.

    python3 scripts/fp8_block_peer.py [--shapes 4096x7168x16384,8192x8192x8192] [--rounds 8] [--iters 20]
                                      [--check 1008x1536x16384] [--compiled-dims nk,none]
                                      [--sustained SECONDS [--passes 2]]

With --sustained, instead of rounds each contestant runs back to back for SECONDS a burst, the SM clock and board
power sampled by nvidia-smi, as `swz bench gemm --dtype e4m3 --sustained` does for ours: TFLOP/s at the clock the
card holds at its power cap, and as a share of the tensor peak at that clock.
"""
import argparse
import statistics
import sys
import time

try:
    import torch
except ImportError as err:
    print(f"fp8_block_peer: needs torch with CUDA ({err})", file=sys.stderr)
    sys.exit(2)

BLOCK = 128
E4M3 = torch.float8_e4m3fn


def median_ms(fn, sets, iters, warmup=3):
    for i in range(warmup):
        fn(sets[i % len(sets)])
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for i, (s, e) in enumerate(events):
        s.record()
        fn(sets[i % len(sets)])
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def shape(text):
    """MxNxK; K a multiple of 128 (the scale block), M and N of 16 (`torch._scaled_mm`)."""
    try:
        m, n, k = (int(v) for v in text.split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: expected MxNxK") from None
    if min(m, n, k) < 1 or k % BLOCK or m % 16 or n % 16:
        raise argparse.ArgumentTypeError(f"{text}: K must be a multiple of {BLOCK}, M and N of 16")
    return m, n, k


def operands(m, n, k, gen):
    """Random e4m3 A (M x K), B (N x K) (never zero: normal values spread over the e4m3 range) and positive fp32
    scales: A per (row, K block), B per (128-row block, K block)."""
    a = (torch.randn(m, k, device="cuda", generator=gen) * 64).clamp(-448, 448).to(E4M3)
    b = (torch.randn(n, k, device="cuda", generator=gen) * 64).clamp(-448, 448).to(E4M3)
    sa = torch.rand(m, k // BLOCK, device="cuda", generator=gen) * 1.5e-3 + 5e-4
    sb = torch.rand((n + BLOCK - 1) // BLOCK, k // BLOCK, device="cuda", generator=gen) * 1.5e-3 + 5e-4
    return a, b, sa, sb


def dequantized(x, s, rows_per_scale):
    return x.double() * s.double().repeat_interleave(rows_per_scale, 0)[: x.shape[0]].repeat_interleave(BLOCK, 1)


class DeepGemm:
    """DeepGEMM's block-scaled NT GEMM. The scales are laid out once, outside the timing, as DeepGEMM wants them
    (`transform_sf_into_required_layout`: A's MN-major and TMA-aligned), as a serving stack keeps them; the call then
    has no layout work left. `laid_out = False` passes them as made (row-major) and lets the call lay them out."""

    def __init__(self, dg, compiled_dims):
        self.dg = dg
        self.recipe = (1, BLOCK, BLOCK)
        self.laid_out = True
        self.compiled_dims = compiled_dims
        self.name = f"compiled dims '{compiled_dims}'"

    def prepare(self, a, b, sa, sb):
        m, k = a.shape
        n = b.shape[0]
        if self.laid_out:
            sa = self.dg.transform_sf_into_required_layout(sa, m, k, self.recipe, is_sfa=True)
            sb = self.dg.transform_sf_into_required_layout(sb, n, k, self.recipe, is_sfa=False)
        return (a, sa), (b, sb), torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

    def __call__(self, ops):
        a, b, d = ops
        self.dg.fp8_gemm_nt(a, b, d, recipe=self.recipe, compiled_dims=self.compiled_dims)
        return d


def cublaslt(ops):
    a, b, one = ops
    return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)


def rel_errors(out, ref):
    return ((out - ref).norm() / ref.norm()).item(), ((out - ref).abs().max() / ref.abs().max()).item()


def check(dg, m, n, k, gen):
    """DeepGEMM (scales laid out beforehand; if that call fails or errs, scales as made) and cuBLASLt against fp64."""
    a, b, sa, sb = operands(m, n, k, gen)
    ref = dequantized(a, sa, 1) @ dequantized(b, sb, BLOCK).T
    for laid_out in (True, False):
        dg.laid_out = laid_out
        try:
            ops = dg.prepare(a, b, sa, sb)
            ops[2].fill_(float("nan"))
            norm, worst = rel_errors(dg(ops).double(), ref)
        except Exception as err:  # a layout call this version lacks or refuses: try the other way once
            norm, worst = float("nan"), float("nan")
            print(f"scales laid out beforehand = {laid_out}: {type(err).__name__}: {str(err).splitlines()[0]}")
        print(f"check {m}x{n}x{k}, DeepGEMM {dg.name}, scales laid out beforehand = {laid_out}: vs fp64 of the "
              f"dequantized inputs: normwise {norm:.2e}, max |err| / max |ref| {worst:.2e}")
        # bf16 output rounding alone is 2^-9 relative per element; above 1e-2 the call is wrong.
        if norm < 1e-2:
            break
    else:
        raise SystemExit("FAILED: DeepGEMM result check")
    one = torch.ones((), device="cuda")
    peer_norm, peer_worst = rel_errors(cublaslt((a, b, one)).double(), a.double() @ b.double().T)
    print(f"check {m}x{n}x{k}: cuBLASLt per-tensor vs fp64: normwise {peer_norm:.2e}, max {peer_worst:.2e}")
    if not peer_norm < 1e-2:
        raise SystemExit("FAILED: cuBLASLt result check")


# Dense e4m3 tensor-core flops per SM per clock on sm_90 (gpu_bench::hopper::fp8_sustained::E4M3_FLOPS_PER_SM_CLOCK).
E4M3_FLOPS_PER_SM_CLOCK = 8192


class Smi:
    """`nvidia-smi` sampling the SM clock and board power every 50 ms beside the bursts, each sample stamped as it
    arrives (gpu_bench::smi's method); `window(t0, t1)` is the mean (MHz, W) of the samples in it, or None."""

    def __init__(self):
        import subprocess
        import threading
        self.samples = []
        props = torch.cuda.get_device_properties(0)
        try:  # the PCI address, the same GPU whatever CUDA_VISIBLE_DEVICES renumbers; else nvidia-smi's index 0
            gpu = f"{props.pci_domain_id:08X}:{props.pci_bus_id:02X}:{props.pci_device_id:02X}.0"
        except AttributeError:
            gpu = "0"
        try:
            self.proc = subprocess.Popen(
                ["nvidia-smi", f"--id={gpu}",
                 "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits", "-lms=50"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        except OSError as err:
            print(f"nvidia-smi: {err}; no clock or power")
            self.proc = None
            return

        def read():
            for line in self.proc.stdout:
                try:
                    clock, power = (float(v) for v in line.split(","))
                except ValueError:
                    continue
                self.samples.append((time.time(), clock, power))

        threading.Thread(target=read, daemon=True).start()

    def window(self, t0, t1):
        inside = [(c, w) for t, c, w in self.samples if t0 <= t <= t1]
        if not inside:
            return None
        return sum(c for c, _ in inside) / len(inside), sum(w for _, w in inside) / len(inside)

    def stop(self):
        if self.proc:
            self.proc.kill()


def sustained(contestants, names, flop, seconds, passes, smi, sms):
    """Each contestant back to back for `seconds` a burst (5 calls between synchronizations, operand sets rotated),
    after one warm-up burst of the last; `passes` passes, every other one reversed. Per burst: TFLOP/s, and from
    the samples after its first 0.5 s the mean clock, power and the share of the tensor peak at that clock."""
    def burst(fn, sets):
        fn(sets[0])
        torch.cuda.synchronize()
        t0, calls = time.time(), 0
        while time.time() - t0 < seconds:
            for _ in range(5):
                fn(sets[calls % len(sets)])
                calls += 1
            torch.cuda.synchronize()
        t1 = time.time()
        return flop * calls / (t1 - t0) / 1e12, smi.window(t0 + 0.5, t1)

    burst(*contestants[-1])
    out = {name: [] for name in names}
    for p in range(passes):
        order = list(range(len(contestants)))
        if p % 2:
            order.reverse()
        for i in order:
            tflops, win = burst(*contestants[i])
            out[names[i]].append((tflops, win))
            clock = f" at {win[0]:.0f} MHz, {win[1]:.0f} W" if win else ""
            print(f"pass {p}: {names[i]} {tflops:.0f} TFLOP/s{clock}")
    for name in names:
        bursts = out[name]
        tf = [t for t, _ in bursts]
        wins = [w for _, w in bursts if w]
        line = f"{name}: {statistics.mean(tf):.0f} TFLOP/s ({min(tf):.0f}-{max(tf):.0f})"
        if wins:
            mhz = statistics.mean(w[0] for w in wins)
            watts = statistics.mean(w[1] for w in wins)
            share = statistics.mean(t * 1e12 / (sms * E4M3_FLOPS_PER_SM_CLOCK * w[0] * 1e6) for t, w in bursts if w)
            line += f" at {mhz:.0f} MHz, {watts:.0f} W: {100 * share:.1f}% of the tensor peak at that clock"
        print(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", type=lambda t: [shape(s) for s in t.split(",")],
                    default="4096x7168x16384,8192x8192x8192", help="MxNxK,...")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--check", type=shape, default="1008x1536x16384", help="MxNxK of the result check")
    ap.add_argument("--compiled-dims", default="nk,none",
                    help="DeepGEMM calls to time, by the dims they compile in as constants (none: all at run time)")
    ap.add_argument("--sustained", type=float, default=0, metavar="SECONDS",
                    help="instead of rounds: each contestant back to back for SECONDS a burst, the SM clock and board "
                         "power sampled by nvidia-smi (as swz bench gemm --sustained)")
    ap.add_argument("--passes", type=int, default=2, help="with --sustained: passes over the contestants")
    a = ap.parse_args()
    if a.rounds < 1 or a.iters < 1:
        ap.error("--rounds and --iters must be at least 1")
    if a.sustained < 0 or (a.sustained and not 0.1 <= a.sustained <= 60) or a.passes < 1:
        ap.error("--sustained takes 0.1 to 60 seconds, --passes at least 1")
    dims = ["" if d == "none" else d for d in a.compiled_dims.split(",")]
    if not dims or any(set(d) - set("mnk") for d in dims):
        ap.error(f"--compiled-dims {a.compiled_dims}: expected a comma list of none or letters of mnk")

    try:
        import deep_gemm
    except (ImportError, OSError) as err:
        ap.exit(2, f"fp8_block_peer: deep_gemm does not import: {str(err).splitlines()[0]} (see the header)\n")
    if not torch.cuda.is_available():
        ap.exit(2, "fp8_block_peer: no CUDA device\n")
    variants = [DeepGemm(deep_gemm, d) for d in dims]
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    version = getattr(deep_gemm, "__version__", "?")
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}  CUDA {torch.version.cuda}  "
          f"deep_gemm {version} ({deep_gemm.__file__})")
    gen = torch.Generator(device="cuda").manual_seed(1)
    for dg in variants:
        t0 = time.time()
        check(dg, *a.check, gen)
        print(f"(first call, JIT compile included: {time.time() - t0:.1f} s)")

    rows = []
    one = torch.ones((), device="cuda")
    for m, n, k in a.shapes:
        set_bytes = m * k + n * k
        nsets = max(2, -(-4 * l2 // set_bytes))
        made = [operands(m, n, k, gen) for _ in range(nsets)]
        contestants = [(dg, [dg.prepare(*ops) for ops in made]) for dg in variants]
        contestants.append((cublaslt, [(x, y, one) for x, y, _, _ in made]))
        for dg, sets in contestants[:-1]:
            t0 = time.time()
            dg(sets[0])
            torch.cuda.synchronize()
            print(f"{m}x{n}x{k}: {nsets} operand sets of {set_bytes / 2**20:.0f} MiB; first call of DeepGEMM "
                  f"{dg.name}: {time.time() - t0:.1f} s")
        if a.sustained:
            smi = Smi()
            names = [f"DeepGEMM {dg.name}" for dg in variants] + ["cuBLASLt per-tensor"]
            print(f"{m}x{n}x{k}: bursts of {a.sustained} s, {a.passes} passes")
            sustained(contestants, names, 2 * m * n * k, a.sustained, a.passes, smi,
                      torch.cuda.get_device_properties(0).multi_processor_count)
            smi.stop()
            del made, contestants
            torch.cuda.empty_cache()
            continue
        ms = [[] for _ in contestants]
        for _ in range(a.rounds):
            for times, (fn, sets) in zip(ms, contestants):
                times.append(median_ms(fn, sets, a.iters))
        lt = ms[-1]
        for dg, times in zip(variants, ms):
            ratios = [t_lt / t for t, t_lt in zip(times, lt)]
            print(f"{m}x{n}x{k} DeepGEMM {dg.name}: per-round cuBLASLt / DeepGEMM "
                  + " ".join(f"{100 * r:.1f}%" for r in ratios))
            rows.append(((m, n, k), dg.name, statistics.median(times), statistics.median(lt), ratios))
        del made, contestants
        torch.cuda.empty_cache()

    print(f"\nDeepGEMM fp8_gemm_nt (1x128 / 128x128 scales) against cuBLASLt per-tensor FP8 (torch._scaled_mm), "
          f"{a.rounds} interleaved rounds, {a.iters} timed launches each; times: median over rounds of each round's "
          f"median; ratio: median of the per-round ratios; DeepGEMM's scales laid out beforehand: "
          f"{variants[0].laid_out}\n")
    print("| problem | DeepGEMM call | DeepGEMM µs | TFLOP/s | cuBLASLt per-tensor µs | TFLOP/s "
          "| DeepGEMM / cuBLASLt (range) |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for (m, n, k), name, d, lt, ratios in rows:
        flop = 2 * m * n * k
        print(f"| {m}x{n}x{k} | {name} | {d * 1e3:.1f} | {flop / d / 1e9:.0f} | {lt * 1e3:.1f} | "
              f"{flop / lt / 1e9:.0f} | {100 * statistics.median(ratios):.1f}% "
              f"({100 * min(ratios):.1f}-{100 * max(ratios):.1f}%) |")


if __name__ == "__main__":
    main()
