D=.dev-g2; export PATH=/usr/local/cuda/bin:$PATH
date -u
timeout 150 $D/gemm_bench check > $OUT/check.txt 2>&1; echo "check rc=$?"; grep -E "FAIL|passed|compiled" $OUT/check.txt | head -20
S=t128x256k32s4,t128x256k32s4-mbar,t128x256k64s3,t128x256k64s3-mbar,t128x256k64s3-mbar-ilfill,t128x256k64s4-mbar,t128x256k32s6-mbar,t128x256k32s4-ilfill
timeout 200 $D/gemm_bench bench --shapes 4096x4096x4096,8192x8192x8192 --dtypes fp16,bf16 --b tn,nn --specs $S --iters 20 --json $OUT/bench.json > $OUT/bench.txt 2>&1; echo "bench rc=$?"
grep -E "^\|" $OUT/bench.txt | tail -40
M=""
for r in barrier long_scoreboard short_scoreboard math_pipe_throttle wait not_selected dispatch_stall no_instruction branch_resolving; do M="$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
GEMM_NCU_SIZE=4096 timeout 60 ncu --clock-control none --metrics ${M#,},sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum $D/gemm_bench ncu tn t128x256k32s4-mbar,t128x256k64s3-mbar,t128x256k64s4-mbar > $OUT/stall.txt 2>&1
grep -E "stalled|hmma|duration" $OUT/stall.txt | awk '{print $1, $NF}'
date -u
