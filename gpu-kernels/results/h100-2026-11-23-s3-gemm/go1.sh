#!/bin/bash
# Session 3, device call 1: producer-warpgroup GEMM. From the repo root: bash .dev-s3/go1.sh (carry .devbin .dev-s3)
B=.devbin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
G=$B/test-gpu-kernels-gemm_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. gemm device tests $(t)"
timeout 150 $G --include-ignored --test-threads=1 --nocapture > $OUT/gemm_tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/gemm_tests.log | cut -c1-160 | tail -12
grep -E "prod" $OUT/gemm_tests.log | cut -c1-200 | head -30
echo "== 2. sanitizers (sanitizer_small, default + prod) $(t)"
for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $G --include-ignored --exact sanitizer_small >> $OUT/sanitizer.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitizer.log | tail -1)"; done
echo "== 3. rounds 4096^3 and 8192^3: default vs producer variants $(t)"
timeout 200 $B/gemm_bench rounds --shapes 4096x4096x4096,8192x8192x8192 --specs default,t128x256k32s4-prod,t128x256k32s6-prod,t256x128k32s4-prod --rounds 8 --iters 8 > $OUT/rounds.md 2>&1
echo "rc=$?"; grep -E "^\|" $OUT/rounds.md | grep -v -- "---"
echo "== 4. ncu tensor pipe at 4096^3 tn: default vs prod $(t)"
GEMM_NCU_SIZE=4096 timeout 60 ncu --kernel-name gemm --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,gpu__time_duration.sum $B/gemm_bench ncu tn t128x256k32s4,t128x256k32s4-prod > $OUT/ncu.log 2>&1
echo "rc=$?"; grep -E "gemm|sm__pipe|stalled|gpu__time" $OUT/ncu.log | cut -c1-150
echo "end $(t)"
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
