#!/bin/bash
# Session 4, call 6: the probe test with per-type operands and a magnitude-scaled tolerance; memcheck; peak once more.
B=.dev-s4/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary6.txt
t() { date -u +%H:%M:%S; }
{
echo "== peak_device $(t)"
timeout 120 $B/peak_device --include-ignored --nocapture > $OUT/tests6.log 2>&1; echo "rc=$?"
grep -E "iters|test result|panicked" $OUT/tests6.log | head -30
echo "== memcheck $(t)"
timeout 200 compute-sanitizer --tool memcheck $B/peak_device --include-ignored > $OUT/sanitizer6.log 2>&1; echo "rc=$?"
grep -E "ERROR SUMMARY|test result" $OUT/sanitizer6.log
echo "== peak $(t)"
timeout 200 $B/gemm_bench peak --shapes 4096x4096x4096,8192x8192x8192 --specs default,t128x256k64s4-tma --rounds 8 --json $OUT/peak6.json > $OUT/peak6.md 2>&1; echo "rc=$?"
grep -v "^|---" $OUT/peak6.md
echo "== end $(t)"
} > $S 2>&1
cat $S
