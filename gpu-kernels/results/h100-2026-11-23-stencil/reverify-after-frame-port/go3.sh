#!/usr/bin/env bash
# Third (re-verification) call after the smem fill change: tests + sanitizers in parallel, then the smem bench.
cd "$(dirname "$0")"
T=devbin/test-gpu-kernels-stencil_device
echo "=== tests ($(date -u +%H:%M:%S))"
pids=()
for t in stencil_small_sizes_fp32 stencil_small_sizes_i32 stencil_other_radii_fp32 a_wrong_kernel_is_caught; do
  timeout 40 $T --ignored --exact $t --test-threads=1 --nocapture >"$OUT/$t.log" 2>&1 &
  pids+=($!)
done
for tool in memcheck racecheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $T --ignored --exact sanitizer_pass_stencil --test-threads=1 --nocapture >"$OUT/sanitizer-$tool.log" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait $p || rc=1; done
grep -hE "runs on|test result|wrong|panicked|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT"/*.log | head -30
echo "tests rc=$rc ($(date -u +%H:%M:%S))"
timeout 20 devbin/stencil_bench --n 27 --iters 30 --only smem-p1,smem-p2,smem-p4,smem-p8,smem-p8-unswizzled,shfl-p8 >"$OUT/stencil-bench-smem.md" 2>/dev/null
echo "bench rc=$?"
grep -E "^stencil|smem|shfl|D2D copy \|" "$OUT/stencil-bench-smem.md" | head -50
echo "=== done ($(date -u +%H:%M:%S))"
exit $rc
