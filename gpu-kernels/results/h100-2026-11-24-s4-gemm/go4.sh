#!/bin/bash
# Session 4, call 4: several tiles per block (the next tile's prologue under this tile's epilogue): correctness,
# sanitizers, rounds, sustained bursts, ncu.
B=.dev-s4/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary4.txt
t() { date -u +%H:%M:%S; }
{
echo "== check $(t)"
timeout 200 $B/gemm_bench check > $OUT/check4.log 2>&1; echo "rc=$?"; grep -E "tpb|passed" $OUT/check4.log | tail -4
echo "== gemm_device several_tiles $(t)"
timeout 200 $B/gemm_device --include-ignored several_tiles_per_block_experiment > $OUT/tests4.log 2>&1; echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/tests4.log
echo "== memcheck/racecheck tpb $(t)"
timeout 150 compute-sanitizer --tool memcheck $B/gemm_bench check tpb4-tn-fp16 > $OUT/sanitizer4.log 2>&1; echo "memcheck rc=$?"
timeout 150 compute-sanitizer --tool racecheck $B/gemm_bench check tpb4-tn-fp16 >> $OUT/sanitizer4.log 2>&1; echo "racecheck rc=$?"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed" $OUT/sanitizer4.log
echo "== rounds $(t)"
timeout 240 $B/gemm_bench rounds --shapes 4096x4096x4096,8192x8192x8192,16384x16384x1024,4096x4096x1024 --b tn,nn --specs default,t128x256k32s4-tpb2,t128x256k32s4-tpb4 --rounds 8 > $OUT/rounds4.md 2>&1; echo "rc=$?"
grep -v "^|---" $OUT/rounds4.md | grep -v "cuBLAS"
echo "== burst $(t)"
( while :; do echo "$(date +%s%3N),$(nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader,nounits)"; sleep 0.05; done ) > $OUT/smi4.csv &
SMI=$!
timeout 100 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-tpb4 --ms 4000 > $OUT/burst4.jsonl 2>/dev/null
timeout 100 $B/gemm_bench burst 4096x4096x4096 default t128x256k32s4-tpb4 --ms 4000 >> $OUT/burst4.jsonl 2>/dev/null
kill $SMI
python3 .dev-s4/join.py $OUT/smi4.csv $OUT/burst4.jsonl
echo "== ncu $(t)"
M=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
for st in barrier long_scoreboard short_scoreboard math_pipe_throttle wait; do M=$M,smsp__average_warps_issue_stalled_${st}_per_issue_active.ratio; done
GEMM_NCU_SIZE=4096 timeout 100 ncu --kernel-name regex:gemm --metrics $M $B/gemm_bench ncu tn t128x256k32s4,t128x256k32s4-tpb2,t128x256k32s4-tpb4 > $OUT/ncu4.log 2>&1
echo "rc=$?"; grep -E "  gemm|sm__|smsp__|gpu__time" $OUT/ncu4.log | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $NF}' | paste -d' ' - - - - - - - - - -
echo "== end $(t)"
} > $S 2>&1
cat $S
