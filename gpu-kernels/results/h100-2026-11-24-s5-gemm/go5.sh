#!/bin/bash
# Session 5, call 5: the final gemm_bench (one untimed warm-up burst first): identity vs group-m 8 at 8192^3,
# 4 configurations x 4 alternating passes of 3 s; cuBLAS / default / identity / probe at 8192^3, 2 passes.
B=.dev-s5/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary5.txt
t() { date -u +%H:%M:%S; }
{
for cfg in "fp16 tn" "fp16 nn" "bf16 tn" "bf16 nn"; do set -- $cfg
  echo "== order 8192 $cfg $(t)"
  timeout 80 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-identity --no-peers --ms 3000 --repeat 4 --dtype $1 --b $2 > $OUT/order5-$1-$2.txt 2>>$OUT/err5.txt; echo "rc=$?"
  grep -v "^{" $OUT/order5-$1-$2.txt | grep -v "^|---" | grep -v "^| dtype"
done
for d in fp16 bf16; do
  echo "== peers 8192 $d $(t)"
  timeout 80 $B/gemm_bench burst 8192x8192x8192 default t128x256k32s4-identity --ms 3000 --repeat 2 --dtype $d > $OUT/peers5-$d.txt 2>>$OUT/err5.txt; echo "rc=$?"
  grep -v "^{" $OUT/peers5-$d.txt | grep -v "^|---" | grep -v "^| dtype"
done
echo "== end $(t)"
} > $S 2>&1
cat $S; sort -u $OUT/err5.txt
cd $OUT && tar czf bursts5.tgz order5-*.txt peers5-*.txt && rm order5-*.txt peers5-*.txt
