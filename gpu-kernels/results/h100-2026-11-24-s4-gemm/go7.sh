#!/bin/bash
# Session 4, call 7 (final code after review): probe test, gemm_bench bench / burst output, swz bench gemm.
B=.dev-s4/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary7.txt
t() { date -u +%H:%M:%S; }
{
echo "== peak_device $(t)"
timeout 120 $B/peak_device --include-ignored > $OUT/tests7.log 2>&1; echo "rc=$?"; grep -E "test result|panicked" $OUT/tests7.log
echo "== gemm_bench bench $(t)"
timeout 120 $B/gemm_bench bench --shapes 4096x4096x4096 --dtypes fp16,bf16 --specs default --iters 10 2>/dev/null | tail -8; echo "rc=$?"
echo "== burst $(t)"
timeout 60 $B/gemm_bench burst 4096x4096x4096 default --ms 1000 2>/dev/null; echo "rc=$?"
echo "== swz bench gemm $(t)"
timeout 200 $B/swz bench gemm --sizes 4096 --iters 10 --csv $OUT/bench7.csv > $OUT/bench7.md 2>&1; echo "rc=$?"
grep -E "^gemm|^ceiling|cuBLAS|t128x256k32s4 tn" $OUT/bench7.md; head -3 $OUT/bench7.csv
echo "== end $(t)"
} > $S 2>&1
cat $S
