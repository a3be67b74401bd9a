#!/usr/bin/env bash
# Final check of the merged main on the device: every registered family through the frame's generic verification,
# seed 002's tests + sanitizers, and `swz bench gemm` at 4096^3 (cuBLAS peer in the same run).
set -u
D=$(dirname "$0"); OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== frame: every registered family verifies $(date -u +%T)"
timeout 170 $D/test-gpu-kernels-frame_device --include-ignored --test-threads=1 --nocapture every_registered_family_verifies > $OUT/frame.log 2>&1; echo "rc=$?"
grep -E "specs x|test result|panicked|failures" $OUT/frame.log | head -20
echo "=== seed002 $(date -u +%T)"
timeout 30 $D/test-gpu-kernels-seed002_device --include-ignored --test-threads=1 > $OUT/seed002.log 2>&1; echo "rc=$?"; grep "test result" $OUT/seed002.log
for tool in memcheck racecheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $D/test-gpu-kernels-seed002_device --include-ignored --exact sanitizer_pass --test-threads=1 > $OUT/san-$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1)"
done
echo "=== swz bench gemm 4096 $(date -u +%T)"
timeout 60 $D/swz bench gemm --sizes 4096 --iters 10 > $OUT/bench-gemm.md 2>&1; echo "rc=$?"; grep -vE "^\s*$" $OUT/bench-gemm.md | tail -22
echo "=== done $(date -u +%T)"
