#!/bin/bash
# Session 3, device call 11: the reviewed final code (shared swz_tma.cuh, shared rounds loop). (carry .devbin .dev-s3)
B=.devbin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== gemm_device $(t)"; timeout 150 $B/test-gpu-kernels-gemm_device --include-ignored --test-threads=1 > $OUT/gemm_tests.log 2>&1; echo "rc=$?"; grep -E "test result|panicked" $OUT/gemm_tests.log
echo "== hopper_device $(t)"; timeout 200 $B/test-gpu-kernels-hopper_device --include-ignored --test-threads=1 > $OUT/hopper_tests.log 2>&1; echo "rc=$?"; grep -E "test result|panicked" $OUT/hopper_tests.log
echo "== sanitizers $(t)"; for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $B/test-gpu-kernels-gemm_device --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== diag + rounds smoke $(t)"
timeout 60 $B/gemm_bench diag 4096x4096x4096 default,t128x256k64s4-tma 2>&1 | grep "^|"
timeout 60 $B/gemm_bench rounds --shapes 4096x4096x4096 --b tn --dtypes fp16 --specs default,t128x256k64s4-tma --rounds 4 2>&1 | grep "^|"
echo "end $(t)"
} > $OUT/summary11.txt 2>&1
cat $OUT/summary11.txt
