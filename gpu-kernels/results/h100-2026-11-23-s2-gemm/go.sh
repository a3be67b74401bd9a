#!/bin/bash
# Final device check 3 of the merged main (lead, session 2). From the repo root: bash .dev-final3/go.sh, carry .dev-final3
D=.dev-final3; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $B/*
G=$B/test-gpu-kernels-gemm_device; F=$B/test-gpu-kernels-frame_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. gemm_bench check $(t)"; timeout 60 $B/gemm_bench check > $OUT/check.log 2>&1; echo "rc=$?"; grep -E "FAIL|passed|compiled" $OUT/check.log | tail -3
echo "== 2. gemm device tests $(t)"
timeout 110 $G --include-ignored --test-threads=1 --nocapture > $OUT/gemm_tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/gemm_tests.log | cut -c1-160 | tail -10
echo "== 3. sanitizers (sanitizer_small) $(t)"
for tool in memcheck racecheck; do timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $G --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== 4. frame registry verify: gemm, hopper $(t)"
FRAME_FAMILIES=gemm,hopper timeout 90 $F --include-ignored --test-threads=1 --nocapture --exact every_registered_family_verifies > $OUT/frame.log 2>&1
echo "rc=$?"; grep -E "^(gemm|hopper):|FAILED|test result|panicked" $OUT/frame.log | cut -c1-200 | tail -6
echo "== 5. gemm_bench rounds 8192^3: default vs identity vs unswizzled, 16 interleaved rounds $(t)"
timeout 120 $B/gemm_bench rounds --shapes 8192x8192x8192 --specs default,t128x256k32s4-identity,t128x256k32s4-unswizzled --rounds 16 --iters 8 > $OUT/rounds.md 2>&1
echo "rc=$?"; cat $OUT/rounds.md | grep -E "^\|" | grep -v -- "---"
echo "== 6. ncu DRAM and L2 at 8192^3 fp16 tn: default vs identity $(t)"
GEMM_NCU_SIZE=8192 timeout 60 ncu --clock-control none --kernel-name gemm --metrics dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum $B/gemm_bench ncu tn t128x256k32s4,t128x256k32s4-identity > $OUT/ncu.log 2>&1
echo "rc=$?"; grep -E "dram__|lts__|gpu__time" $OUT/ncu.log
echo "== 7. swz bench gemm --sizes 4096 --iters 10 $(t)"
timeout 70 $B/swz bench gemm --sizes 4096 --iters 10 > $OUT/swz_bench_gemm.md 2>&1; echo "rc=$?"
grep -E "reference|hopper" $OUT/swz_bench_gemm.md | head -12
echo "end $(t)"
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
