#!/bin/bash
# Session 5, call 6: every block order (after one untimed warm-up burst) of the default tile in sustained 3 s bursts (2 alternating passes) on the
# issue's four shapes, fp16, both B layouts: which order to choose per shape where orders separate (at the power cap).
B=.dev-s5/bin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary6.txt
t() { date -u +%H:%M:%S; }
O=default,t128x256k32s4-gm4,t128x256k32s4-gm16,t128x256k32s4-strip8,t128x256k32s4-serp8,t128x256k32s4-identity
{
echo "== start $(t)"
for shape in 8192x8192x8192 4096x4096x4096 16384x16384x1024 4096x4096x1024; do for b in tn nn; do
  echo "== orders $shape $b $(t)"
  timeout 80 $B/gemm_bench burst $shape $O --no-peers --ms 3000 --repeat 2 --dtype fp16 --b $b > $OUT/orders-$shape-$b.txt 2>>$OUT/err6.txt; echo "rc=$?"
  grep -v "^{" $OUT/orders-$shape-$b.txt | grep -v "^|---" | grep -v "^| dtype"
done; done
echo "== end $(t)"
} > $S 2>&1
cat $S; sort -u $OUT/err6.txt
cd $OUT && tar czf orders6.tgz orders-*.txt && rm orders-*.txt
