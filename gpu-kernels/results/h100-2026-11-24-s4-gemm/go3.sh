#!/bin/bash
# Session 4, call 3 (final code): probe test + memcheck, gemm tests, gemm registry, fixed cost per tile (K sweep),
# swz bench gemm with the measured ceiling, swz report (GPU).
B=.devbin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary3.txt
t() { date -u +%H:%M:%S; }
{
echo "== peak_device $(t)"
timeout 120 $B/test-gpu-kernels-peak_device --include-ignored --nocapture > $OUT/tests3.log 2>&1; echo "rc=$?"
grep -E "iters 7|test result" $OUT/tests3.log | head -30
echo "== memcheck peak_device $(t)"
timeout 200 compute-sanitizer --tool memcheck $B/test-gpu-kernels-peak_device --include-ignored > $OUT/sanitizer3.log 2>&1; echo "rc=$?"
grep -E "ERROR SUMMARY|test result" $OUT/sanitizer3.log
echo "== gemm_device $(t)"
timeout 240 $B/test-gpu-kernels-gemm_device --include-ignored --test-threads=1 >> $OUT/tests3.log 2>&1; echo "rc=$?"
grep -E "^test |test result" $OUT/tests3.log | tail -12
echo "== frame registry gemm $(t)"
FRAME_FAMILIES=gemm timeout 200 $B/test-gpu-kernels-frame_device --include-ignored --test-threads=1 >> $OUT/tests3.log 2>&1; echo "rc=$?"
grep -E "test result" $OUT/tests3.log | tail -1
echo "== K sweep $(t)"
timeout 200 $B/gemm_bench rounds --shapes 4096x4096x1024,4096x4096x2048,4096x4096x4096,4096x4096x8192 --dtypes fp16 --b tn --specs default,t128x256k64s4-tma --rounds 8 > $OUT/ksweep3.md 2>&1; echo "rc=$?"
grep -v "^|---" $OUT/ksweep3.md
echo "== swz bench gemm $(t)"
timeout 240 $B/swz bench gemm --iters 10 --json $OUT/bench3.json > $OUT/bench3.md 2>&1; echo "rc=$?"
grep -E "^gemm|^hopper|^reference|^ceiling|cuBLAS|t128x256k32s4 |hopper-" $OUT/bench3.md
echo "== end $(t)"
} > $S 2>&1
cat $S
