#!/bin/bash
# Session 5, call 4: the final code: burst's sampler addressing the GPU by PCI id, gemm_device and peak_device.
B=.dev-s5/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary4.txt
t() { date -u +%H:%M:%S; }
{
echo "== burst $(t)"
timeout 60 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-identity --no-peers --ms 2000 --repeat 2 --dtype bf16 --b tn > $OUT/burst4.txt 2>&1; echo "rc=$?"; cat $OUT/burst4.txt
echo "== CUDA_VISIBLE_DEVICES=0 burst (probe only) $(t)"
CUDA_VISIBLE_DEVICES=0 timeout 60 $B/gemm_bench burst 4096x4096x4096 --ms 1500 2>&1 | grep -v "^{"; echo "rc=$?"
echo "== peak_device $(t)"
timeout 200 $B/peak_device --include-ignored > $OUT/peak_tests4.log 2>&1; echo "rc=$?"; grep -E "^test |test result" $OUT/peak_tests4.log
echo "== gemm_device $(t)"
timeout 300 $B/gemm_device --include-ignored > $OUT/gemm_tests4.log 2>&1; echo "rc=$?"; grep -E "^test |test result" $OUT/gemm_tests4.log
echo "== end $(t)"
} > $S 2>&1
cat $S
