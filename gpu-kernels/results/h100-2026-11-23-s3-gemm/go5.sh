#!/bin/bash
# Session 3, device call 5: L2 prefetch as a spec field; tests; rounds on the four shapes. (carry .dev-s3)
B=.dev-s3/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
G=$B/gemm_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. gemm_bench check $(t)"; timeout 90 $B/gemm_bench check > $OUT/check.log 2>&1; echo "rc=$?"; grep -E "FAIL|passed|compiled" $OUT/check.log | tail -3
echo "== 2. gemm device tests $(t)"
timeout 170 $G --include-ignored --test-threads=1 --nocapture > $OUT/gemm_tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/gemm_tests.log | cut -c1-160 | tail -10
echo "== 3. sanitizers $(t)"
for tool in memcheck racecheck; do timeout 50 compute-sanitizer --tool $tool --error-exitcode 1 $G --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== 4. rounds: L2 prefetch 128 (default) vs none vs 256, and k64s4 $(t)"
timeout 200 $B/gemm_bench rounds --shapes 8192x8192x8192,4096x4096x4096,16384x16384x1024,4096x4096x1024 --specs default,t128x256k32s4-nol2,t128x256k32s4-l2-256,t128x256k64s4 --rounds 12 --iters 8 > $OUT/rounds.md 2>&1
echo "rc=$?"; grep -E "^\|" $OUT/rounds.md | grep -v -- "---" | grep -v "^| shape" | cut -d'|' -f2-10
echo "end $(t)"
} > $OUT/summary5.txt 2>&1
cat $OUT/summary5.txt
