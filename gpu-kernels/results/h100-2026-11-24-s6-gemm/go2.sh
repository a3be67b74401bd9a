#!/bin/bash
# Session 6, call 2: row lookahead (ROW_AHEAD) on the default tile and on 96x64 warp tiles: quick check, bursts.
B=.dev-s6/bin; chmod +x $B/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
(timeout 120 $B/gemm_bench check s4-a; timeout 120 $B/gemm_bench check w96) > $OUT/check2.txt 2>&1
grep -E "passed|FAIL" $OUT/check2.txt
S="default t128x256k32s4-a1 t128x256k32s4-a3 t192x256k32s4-w96a1 t192x256k32s4-w96a2 t192x256k32s4-w96a5 t192x256k64s3-w96a1 t192x256k64s3-w96a2 t192x256k64s3-w96a3 t192x256k64s3-w96a5"
for sh in 4096x4096x4096 8192x8192x8192; do
timeout 150 $B/gemm_bench burst $sh $S --ms 1200 --repeat 2 > $OUT/burst2-$sh.txt 2>&1; echo "rc=$?" >> $OUT/burst2-$sh.txt
grep -v '^{' $OUT/burst2-$sh.txt | cut -d'|' -f4,6,7,8,9,11
done
