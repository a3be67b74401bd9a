#!/bin/bash
# Session 6, call 1: row-fragment experiments (96x64 warp tiles): correctness, sanitizer, sustained bursts.
B=.dev-s6/bin; chmod +x $B/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv
timeout 200 $B/gemm_device --include-ignored --test-threads=1 --nocapture row_fragment_experiments > $OUT/test1.log 2>&1; echo "rc=$?" >> $OUT/test1.log
grep -E "^test |test result|panicked" $OUT/test1.log | head; grep -c "worst" $OUT/test1.log
S="default t128x256k32s4-gm16 t128x256k32s4-rows t192x256k32s4-w96 t192x256k64s3-w96 t384x128k32s4-w96 t192x128k32s4-w96x2"
timeout 100 $B/gemm_bench burst 4096x4096x4096 $S --ms 1500 --repeat 2 > $OUT/burst1-4096.txt 2>&1; echo "rc=$?" >> $OUT/burst1-4096.txt
grep -v '^{' $OUT/burst1-4096.txt
timeout 100 $B/gemm_bench burst 8192x8192x8192 $S --ms 1500 --repeat 2 > $OUT/burst1-8192.txt 2>&1; echo "rc=$?" >> $OUT/burst1-8192.txt
grep -v '^{' $OUT/burst1-8192.txt
timeout 100 compute-sanitizer --tool memcheck $B/gemm_device --include-ignored --test-threads=1 sanitizer_small > $OUT/memcheck1.log 2>&1; echo "rc=$?" >> $OUT/memcheck1.log
tail -3 $OUT/memcheck1.log
