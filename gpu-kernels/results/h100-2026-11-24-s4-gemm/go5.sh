#!/bin/bash
# Session 4, call 5 (final code): block order at 8192^3 in interleaved rounds; swz report in GPU mode.
B=.devbin; chmod +x $B/* .dev-s4/bin/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary5.txt
t() { date -u +%H:%M:%S; }
{
echo "== rounds: order at 8192^3 $(t)"
timeout 200 .dev-s4/bin/gemm_bench rounds --shapes 8192x8192x8192 --specs default,t128x256k32s4-identity --rounds 12 > $OUT/rounds5-order.md 2>&1; echo "rc=$?"
grep -v "^|---" $OUT/rounds5-order.md
echo "== swz report $(t)"
timeout 300 $B/swz report --sizes 4096 --iters 5 --json $OUT/report5.json > $OUT/report5.md 2>&1; echo "rc=$?"
grep -E "^mode|^## |variants at|wrong|^reference|^ceiling|\| (D2D copy|cuBLAS)|t128x256k32s4 tn" $OUT/report5.md | head -40
echo "== end $(t)"
} > $S 2>&1
cat $S
