# Mean SM clock / power / throttle reasons per burst: smi.csv (unix_ms, clocks.sm, power.draw, temp, event
# reasons) joined with `gemm_bench burst` JSON lines; the first 500 ms of a burst are skipped (clock settling).
import json, sys
smi = []
for l in open(sys.argv[1]):
    f = [x.strip() for x in l.split(",")]
    try: smi.append((int(f[0]), float(f[1]), float(f[2]), f[3], f[4] if len(f) > 4 else ""))
    except Exception: pass
print("| kernel | dtype | b | pass | TFLOP/s | SM clock MHz (mean, min-max) | power W (mean) | temp C | event reasons | samples | probe clock MHz |")
print("|---|---|---|--:|--:|---|--:|--:|---|--:|--:|")
for path in sys.argv[2:]:
    for l in open(path):
        if not l.startswith("{"): continue
        j = json.loads(l)
        s = [x for x in smi if j["start_ms"] + 500 <= x[0] <= j["end_ms"]]
        if not s: print("|", j["kernel"], "| no samples |"); continue
        clk = [x[1] for x in s]; pw = [x[2] for x in s]
        reasons = sorted(set(x[4] for x in s))
        print(f"| {j['kernel']} | {j.get('dtype','')} | {j.get('b','')} | {j.get('pass','')} | {j['tflops']} | {sum(clk)/len(clk):.0f} ({min(clk):.0f}-{max(clk):.0f}) | {sum(pw)/len(pw):.0f} | {s[-1][3]} | {' '.join(reasons)} | {len(s)} | {j['probe_clock_mhz']} |")
