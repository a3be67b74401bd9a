#!/bin/bash
# Session 3, device call 8: the split k-tile barrier on the TMA fill. (carry .dev-s3)
B=.dev-s3/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
G=$B/gemm_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. tests $(t)"
timeout 120 $G --include-ignored --test-threads=1 --nocapture --exact tma_fill_experiment > $OUT/tma_tests.log 2>&1
echo "rc=$?"; grep -E "test result|panicked" $OUT/tma_tests.log | cut -c1-200 | tail -3; grep -E "split.*(4096x4096x4096|16384x128)" $OUT/tma_tests.log | cut -c1-200
for tool in memcheck racecheck synccheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $G --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== 2. diag $(t)"
timeout 80 $B/gemm_bench diag 4096x4096x4096 default,t128x256k64s4-tma,t128x256k64s4-tma-split 2>&1 | grep "^|"
timeout 120 $B/gemm_bench diag 8192x8192x8192 default,t128x256k64s4-tma,t128x256k64s4-tma-split 2>&1 | grep "^|"
echo "== 3. rounds tn $(t)"
timeout 200 $B/gemm_bench rounds --shapes 4096x4096x4096,8192x8192x8192 --b tn --specs default,t128x256k64s4-tma,t128x256k64s4-tma-split --rounds 12 --iters 8 > $OUT/rounds8.md 2>&1
echo "rc=$?"; grep -E "^\|" $OUT/rounds8.md | grep -v -- "---" | grep -v "^| shape" | cut -d'|' -f2-10
echo "== 4. ncu tensor pipe 4096^3 tn $(t)"
GEMM_NCU_SIZE=4096 timeout 60 ncu --kernel-name regex:gemm --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio $B/gemm_bench ncu tn t128x256k64s4-tma,t128x256k64s4-tma-split > $OUT/ncu8.log 2>&1
echo "rc=$?"; grep -E "  gemm|sm__pipe|gpu__time|stalled" $OUT/ncu8.log | cut -c1-150
echo "end $(t)"
} > $OUT/summary8.txt 2>&1
cat $OUT/summary8.txt
