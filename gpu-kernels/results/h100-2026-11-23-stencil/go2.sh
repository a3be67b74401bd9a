#!/usr/bin/env bash
# Second stencil device call: the small-size and other-radius tests (three processes at once: NVRTC compiles are
# CPU-bound), then the i32 bench at 2^27.
cd "$(dirname "$0")"
T=devbin/test-gpu-kernels-stencil_device
echo "=== tests ($(date -u +%H:%M:%S))"
pids=()
for t in stencil_small_sizes_fp32 stencil_small_sizes_i32 stencil_other_radii_fp32; do
  timeout 55 $T --ignored --exact $t --test-threads=1 --nocapture >"$OUT/$t.log" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait $p || rc=1; done
grep -hE "^test |runs on|test result|wrong|panicked" "$OUT"/stencil_*.log | head -40
echo "tests rc=$rc ($(date -u +%H:%M:%S))"
timeout 25 devbin/stencil_bench --n 27 --types i32 --iters 30 --json "$OUT/stencil-bench-i32.json" >"$OUT/stencil-bench-i32.md" 2>/dev/null
echo "bench rc=$?"
sed -n '/^summary/,$p' "$OUT/stencil-bench-i32.md"
echo "=== done ($(date -u +%H:%M:%S))"
exit $rc
