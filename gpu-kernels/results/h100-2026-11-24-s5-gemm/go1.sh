#!/bin/bash
# Session 5, call 1: block order under sustained load (the 700 W cap): default (group-m 8) vs identity at 8192^3,
# 4 configurations x 4 alternating passes of 3 s bursts, with nvidia-smi clocks and power; the same with cuBLAS and
# the probe beside them; other tiles sustained; ncu DRAM bytes / L2 hit rate per order.
B=.dev-s5/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary1.txt
t() { date -u +%H:%M:%S; }
{
echo "== start $(t)"; nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv
( while :; do echo "$(date +%s%3N),$(nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader,nounits)"; sleep 0.05; done ) > $OUT/smi1.csv &
SMI=$!
for cfg in "fp16 tn" "fp16 nn" "bf16 tn" "bf16 nn"; do set -- $cfg
  timeout 60 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-identity --no-peers --ms 3000 --repeat 4 --dtype $1 --b $2 >> $OUT/burst1-order.jsonl 2>>$OUT/err1.txt; echo "order $cfg rc=$?"
done
for d in fp16 bf16; do
  timeout 60 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-identity --ms 3000 --dtype $d >> $OUT/burst1-peers.jsonl 2>>$OUT/err1.txt; echo "peers $d rc=$?"
done
timeout 60 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-nol2 t256x128k32s4 t128x256k64s3 --no-peers --ms 3000 --repeat 2 >> $OUT/burst1-tiles.jsonl 2>>$OUT/err1.txt; echo "tiles rc=$?"
kill $SMI
python3 .dev-s5/join.py $OUT/smi1.csv $OUT/burst1-order.jsonl $OUT/burst1-peers.jsonl $OUT/burst1-tiles.jsonl > $OUT/burst1.md
cat $OUT/burst1.md
echo "== ncu $(t)"
M=dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
for b in tn nn; do
GEMM_NCU_SIZE=8192 timeout 100 ncu --kernel-name gemm --metrics $M $B/gemm_bench ncu $b default,t128x256k32s4-identity > $OUT/ncu1-$b.log 2>&1; echo "ncu $b rc=$?"
grep -E "^  gemm|dram__|lts__|gpu__|sm__" $OUT/ncu1-$b.log | awk '{print $1, $NF}' | paste -d' ' - - - - - -
done
echo "== end $(t)"
} > $S 2>&1
cat $S; tail -3 $OUT/err1.txt
