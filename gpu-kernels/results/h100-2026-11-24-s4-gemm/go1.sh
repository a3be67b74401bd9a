#!/bin/bash
# Session 4, call 1: the measured mma.sync ceiling (probe) beside cuBLAS and the GEMMs; clocks and power per kernel.
B=.dev-s4/bin/gemm_bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/summary1.txt
( while :; do echo "$(date +%s%3N),$(nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader,nounits)"; sleep 0.05; done ) > $OUT/smi1.csv &
SMI=$!
sleep 1
timeout 120 $B burst 8192x8192x8192 default t128x256k64s4-tma --ms 4000 > $OUT/burst8192.jsonl 2>>$OUT/err1.log
timeout 120 $B burst 4096x4096x4096 default t128x256k64s4-tma --ms 4000 > $OUT/burst4096.jsonl 2>>$OUT/err1.log
kill $SMI
python3 .dev-s4/join.py $OUT/smi1.csv $OUT/burst8192.jsonl $OUT/burst4096.jsonl >> $OUT/summary1.txt 2>&1
timeout 300 $B peak --shapes 4096x4096x4096,8192x8192x8192 --specs default,t128x256k64s4-tma --rounds 8 --json $OUT/peak1.json >> $OUT/summary1.txt 2>>$OUT/err1.log
echo "rc=$?" >> $OUT/summary1.txt
cat $OUT/summary1.txt; tail -5 $OUT/err1.log
