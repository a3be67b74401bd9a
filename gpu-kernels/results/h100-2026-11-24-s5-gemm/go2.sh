#!/bin/bash
# Session 5, call 2: `gemm_bench burst` with its own nvidia-smi sampler and table: block order (default = group-m 8
# vs identity) in sustained 3 s bursts at 8192^3 (4 configurations x 4 alternating passes) and 4096^3 (tn), and
# cuBLAS / default / identity / probe side by side.
B=.dev-s5/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary2.txt
t() { date -u +%H:%M:%S; }
{
echo "== start $(t)"
for cfg in "8192 fp16 tn" "8192 fp16 nn" "8192 bf16 tn" "8192 bf16 nn" "4096 fp16 tn" "4096 bf16 tn"; do set -- $cfg
  echo "== order $cfg $(t)"
  timeout 60 $B/gemm_bench burst ${1}x${1}x${1} default t128x256k32s4-identity --no-peers --ms 3000 --repeat 4 --dtype $2 --b $3 > $OUT/order-$1-$2-$3.txt 2>>$OUT/err2.txt; echo "rc=$?"
  grep -v "^{" $OUT/order-$1-$2-$3.txt | grep -v "^|---"
done
for cfg in "8192 fp16" "8192 bf16" "4096 fp16" "4096 bf16"; do set -- $cfg
  echo "== peers $cfg $(t)"
  timeout 60 $B/gemm_bench burst ${1}x${1}x${1} default t128x256k32s4-identity --ms 3000 --repeat 2 --dtype $2 > $OUT/peers-$1-$2.txt 2>>$OUT/err2.txt; echo "rc=$?"
  grep -v "^{" $OUT/peers-$1-$2.txt | grep -v "^|---"
done
echo "== end $(t)"
} > $S 2>&1
cat $S; sort -u $OUT/err2.txt
cd $OUT && tar czf bursts2.tgz order-*.txt peers-*.txt && rm order-*.txt peers-*.txt
