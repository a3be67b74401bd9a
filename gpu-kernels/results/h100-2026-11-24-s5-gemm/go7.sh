#!/bin/bash
# Session 5, call 7 (.devbin staged from the final code): the gemm family with its group-m 16 row through the
# frame's verification, `swz bench gemm`, and `swz report` (GPU mode).
B=.devbin; chmod +x $B/*
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=$OUT/summary7.txt
t() { date -u +%H:%M:%S; }
{
echo "== frame registry gemm $(t)"
FRAME_FAMILIES=gemm timeout 200 $B/test-gpu-kernels-frame_device --include-ignored --test-threads=1 > $OUT/tests7.log 2>&1; echo "rc=$?"
grep -E "^test |test result|fail|wrong" $OUT/tests7.log | tail -8
echo "== swz bench gemm $(t)"
timeout 240 $B/swz bench gemm --iters 10 --json $OUT/bench7.json > $OUT/bench7.md 2>&1; echo "rc=$?"
grep -E "^gemm|^reference|^ceiling|t128x256k32s4" $OUT/bench7.md
echo "== swz report $(t)"
timeout 280 $B/swz report --sizes 4096 --iters 5 > $OUT/report7.md 2>&1; echo "rc=$?"
grep -E "^mode|^## |variants at|wrong|^reference|^ceiling|t128x256k32s4(-gm16)? tn" $OUT/report7.md | head -40
echo "== end $(t)"
} > $S 2>&1
cat $S
