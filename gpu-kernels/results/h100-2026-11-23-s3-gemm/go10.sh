#!/bin/bash
# Session 3, device call 10: stall breakdown of the TMA twin vs the default. (carry .dev-s3)
B=.dev-s3/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
M=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
for st in barrier long_scoreboard short_scoreboard math_pipe_throttle wait mio_throttle not_selected selected dispatch_stall no_instruction branch_resolving lg_throttle membar sleeping tex_throttle drain imc_miss misc; do M=$M,smsp__average_warps_issue_stalled_${st}_per_issue_active.ratio; done
GEMM_NCU_SIZE=4096 timeout 100 ncu --kernel-name regex:gemm --metrics $M $B/gemm_bench ncu tn t128x256k32s4,t128x256k64s4,t128x256k64s4-tma > $OUT/ncu10.log 2>&1
echo "rc=$?"; grep -E "  gemm|sm__|smsp__|gpu__time" $OUT/ncu10.log | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}' | paste - - - - - - - - - - - - - - - - - - - - - - - -
