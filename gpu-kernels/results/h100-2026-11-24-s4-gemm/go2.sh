#!/bin/bash
# Session 4, call 2: the staggered fill (correctness, rounds, sustained bursts, ncu stalls); swz bench gemm's ceiling column.
B=.dev-s4/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH
S=$OUT/summary2.txt
t() { date -u +%H:%M:%S; }
echo "== check $(t)" >> $S
timeout 200 $B/gemm_bench check > $OUT/check2.log 2>&1; echo "rc=$?" >> $S; tail -3 $OUT/check2.log >> $S
echo "== rounds $(t)" >> $S
timeout 200 $B/gemm_bench rounds --shapes 4096x4096x4096,8192x8192x8192 --b tn,nn --specs default,t128x256k32s4-stagger,t128x256k64s4,t128x256k64s4-stagger --rounds 8 > $OUT/rounds2.md 2>>$OUT/err2.log; echo "rc=$?" >> $S
echo "== burst $(t)" >> $S
( while :; do echo "$(date +%s%3N),$(nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader,nounits)"; sleep 0.05; done ) > $OUT/smi2.csv &
SMI=$!
timeout 100 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-stagger t128x256k64s4-stagger --ms 4000 > $OUT/burst2.jsonl 2>>$OUT/err2.log
timeout 100 $B/gemm_bench burst 4096x4096x4096 default t128x256k32s4-stagger t128x256k64s4-stagger --ms 4000 >> $OUT/burst2.jsonl 2>>$OUT/err2.log
kill $SMI
python3 .dev-s4/join.py $OUT/smi2.csv $OUT/burst2.jsonl >> $S 2>&1
echo "== ncu $(t)" >> $S
M=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
for st in barrier long_scoreboard short_scoreboard math_pipe_throttle wait mio_throttle not_selected selected dispatch_stall lg_throttle; do M=$M,smsp__average_warps_issue_stalled_${st}_per_issue_active.ratio; done
GEMM_NCU_SIZE=4096 timeout 100 ncu --kernel-name regex:gemm --metrics $M $B/gemm_bench ncu tn t128x256k32s4,t128x256k32s4-stagger,t128x256k64s4,t128x256k64s4-stagger > $OUT/ncu2.log 2>&1
echo "rc=$?" >> $S; grep -E "  gemm|sm__|smsp__|gpu__time" $OUT/ncu2.log | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}' | paste -d' ' - - - - - - - - - - - - - - >> $S
echo "== swz bench gemm $(t)" >> $S
timeout 120 $B/swz bench gemm --sizes 4096 --iters 10 --only t128x256k32s4 > $OUT/swzbench2.md 2>>$OUT/err2.log; echo "rc=$?" >> $S
echo "== end $(t)" >> $S
cat $S; cat $OUT/rounds2.md | grep -v "^|---" ; head -30 $OUT/swzbench2.md; tail -3 $OUT/err2.log
