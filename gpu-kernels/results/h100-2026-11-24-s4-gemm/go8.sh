#!/bin/bash
# Session 4, call 8: gemm_bench's timing paths after the Lineup / finish refactor (short runs).
B=.dev-s4/bin; chmod +x $B/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary8.txt
{
echo "== bench"; timeout 90 $B/gemm_bench bench --shapes 4096x4096x4096 --dtypes fp16 --specs default --iters 10 2>/dev/null | tail -4; echo "rc=$?"
echo "== rounds"; timeout 90 $B/gemm_bench rounds --shapes 4096x4096x4096 --dtypes bf16 --b tn,nn --specs default,t128x256k32s4-identity --rounds 4 --json $OUT/rounds8.json 2>/dev/null | grep -v "^|---"; echo "rc=$?"
echo "== peak"; timeout 90 $B/gemm_bench peak --shapes 4096x4096x4096 --dtypes fp16 --specs default --rounds 3 2>/dev/null | grep -v "^|---"; echo "rc=$?"
echo "== diag"; timeout 90 $B/gemm_bench diag 4096x4096x4096 default 2>/dev/null; echo "rc=$?"
echo "== burst"; timeout 60 $B/gemm_bench burst 4096x4096x4096 default --ms 500 2>/dev/null; echo "rc=$?"
} > $S 2>&1
cat $S; head -c 300 $OUT/rounds8.json
