#!/bin/bash
# Session 3, device call 7: the final code. bash .dev-s3/go7.sh (carry .devbin .dev-s3)
B=.devbin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
G=$B/test-gpu-kernels-gemm_device; F=$B/test-gpu-kernels-frame_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. gemm_bench check $(t)"; timeout 90 $B/gemm_bench check > $OUT/check.log 2>&1; echo "rc=$?"; grep -E "FAIL|passed|compiled" $OUT/check.log | tail -3
echo "== 2. gemm device tests $(t)"
timeout 170 $G --include-ignored --test-threads=1 --nocapture > $OUT/gemm_tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/gemm_tests.log | cut -c1-120 | tail -10
echo "== 3. sanitizers $(t)"
for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $G --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== 4. frame registry: gemm $(t)"
FRAME_FAMILIES=gemm timeout 90 $F --include-ignored --test-threads=1 --nocapture --exact every_registered_family_verifies > $OUT/frame.log 2>&1
echo "rc=$?"; grep -E "^gemm:|FAILED|test result|panicked" $OUT/frame.log | cut -c1-200 | tail -4
echo "== 5. diag 4096^3 and 8192^3: default vs TMA fill $(t)"
timeout 60 $B/gemm_bench diag 4096x4096x4096 default,t128x256k64s4,t128x256k64s4-tma 2>&1 | grep "^|"
timeout 120 $B/gemm_bench diag 8192x8192x8192 default,t128x256k64s4-tma 2>&1 | grep "^|"
echo "== 6. rounds tn, short-K shapes $(t)"
timeout 100 $B/gemm_bench rounds --shapes 16384x16384x1024,4096x4096x1024 --b tn --specs default,t128x256k64s4,t128x256k64s4-tma --rounds 12 --iters 8 > $OUT/rounds7.md 2>&1
echo "rc=$?"; grep -E "^\|" $OUT/rounds7.md | grep -v -- "---" | grep -v "^| shape" | cut -d'|' -f2-10
echo "end $(t)"
} > $OUT/summary7.txt 2>&1
cat $OUT/summary7.txt
