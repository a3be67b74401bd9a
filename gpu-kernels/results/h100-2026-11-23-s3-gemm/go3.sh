#!/bin/bash
# Session 3, device call 3: producer warpgroup with wait_group + arrive and an early full-barrier probe. (carry .dev-s3)
B=.dev-s3/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
G=$B/gemm_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. producer tests $(t)"
timeout 100 $G --include-ignored --test-threads=1 --nocapture --exact producer_spec_all_sizes > $OUT/prod_tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/prod_tests.log | cut -c1-160 | tail -4
echo "== 2. sanitizers (sanitizer_small, default + prod) $(t)"
for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $G --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== 3. diag 4096^3 $(t)"
timeout 100 $B/gemm_bench diag 4096x4096x4096 default,t128x256k32s4-prod,t128x256k32s6-prod 2>&1
echo "== 4. rounds $(t)"
timeout 240 $B/gemm_bench rounds --shapes 4096x4096x4096,8192x8192x8192 --specs default,t128x256k64s4,t128x256k32s5,t128x256k32s4-prod,t128x256k32s6-prod,t256x128k32s4-prod --rounds 8 --iters 8 > $OUT/rounds.md 2>&1
echo "rc=$?"; grep -E "^\|" $OUT/rounds.md | grep -v -- "---" | grep -v "^| shape" | cut -d'|' -f2-9
echo "end $(t)"
} > $OUT/summary3.txt 2>&1
cat $OUT/summary3.txt
