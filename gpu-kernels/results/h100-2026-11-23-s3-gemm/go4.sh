#!/bin/bash
# Session 3, device call 4: L2 prefetch hints on the fills; shared-memory pipe utilization. (carry .dev-s3)
B=.dev-s3/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. diag 4096^3 $(t)"
timeout 120 $B/gemm_bench diag 4096x4096x4096 default,t128x256k64s4 2>&1
echo "== 2. diag 8192^3 $(t)"
timeout 200 $B/gemm_bench diag 8192x8192x8192 default,t128x256k64s4 2>&1
echo "== 3. ncu shared-memory pipes, 4096^3 tn, default and k64s4 $(t)"
for m in l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed l1tex__throughput.avg.pct_of_peak_sustained_elapsed sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed smsp__inst_executed_op_ldsm.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum sm__cycles_elapsed.avg; do
GEMM_NCU_SIZE=4096 timeout 40 ncu --kernel-name gemm --metrics $m $B/gemm_bench ncu tn t128x256k32s4,t128x256k64s4 > $OUT/ncu_$m.log 2>&1
echo "$m: $(grep -E "^    $m" $OUT/ncu_$m.log | awk '{print $NF}' | tr '\n' ' ') $(grep -m1 ERR $OUT/ncu_$m.log)"
done
echo "end $(t)"
} > $OUT/summary4.txt 2>&1
cat $OUT/summary4.txt
