#!/bin/bash
# Session 3, device call 2: where the mma.sync main loop's time goes. bash .dev-s3/go2.sh (carry .dev-s3)
B=.dev-s3/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. diag 4096^3 $(t)"
timeout 150 $B/gemm_bench diag 4096x4096x4096 default,t128x256k64s4,t128x256k32s4-prod 2>&1
echo "== 2. diag 8192^3 $(t)"
timeout 150 $B/gemm_bench diag 8192x8192x8192 default,t128x256k64s4 2>&1
echo "== 3. ncu memory side at 4096^3 tn: default, k64s4, prod $(t)"
GEMM_NCU_SIZE=4096 timeout 90 ncu --kernel-name gemm --metrics lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,l1tex__m_xbar2l1tex_read_bytes.sum.per_second,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,dram__bytes_read.sum $B/gemm_bench ncu tn t128x256k32s4,t128x256k64s4,t128x256k32s4-prod > $OUT/ncu2.log 2>&1
echo "rc=$?"; grep -E "  gemm|lts__|l1tex__|sm__|gpu__time|dram__" $OUT/ncu2.log | cut -c1-150
echo "end $(t)"
} > $OUT/summary2.txt 2>&1
cat $OUT/summary2.txt
