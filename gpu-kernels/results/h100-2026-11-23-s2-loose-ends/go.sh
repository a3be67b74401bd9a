#!/bin/bash
# Loose ends of the resolved issues (lead, session 2): transpose 16384^2 on the frame code, stencil 2^27+13 after the
# last fill change, and `swz bench stencil` itself on the GPU. bash .dev-le/go.sh, carry .dev-le
D=.dev-le; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
t() { date -u +%T; }
{
echo "start $(t)"
echo "== 1. transpose_16384x16384 $(t)"
timeout 200 $B/test-gpu-kernels-transpose_device --include-ignored --exact transpose_16384x16384 > $OUT/transpose.log 2>&1; echo "rc=$?"; grep -E "test result|panicked" $OUT/transpose.log
echo "== 2. stencil_2e27_plus_13 $(t)"
timeout 120 $B/test-gpu-kernels-stencil_device --include-ignored --exact stencil_2e27_plus_13 > $OUT/stencil.log 2>&1; echo "rc=$?"; grep -E "test result|panicked" $OUT/stencil.log
echo "== 3. swz bench stencil --sizes 134217728 --iters 10 $(t)"
timeout 150 $B/swz bench stencil --sizes 134217728 --elem f32 --iters 10 > $OUT/swz_bench_stencil.md 2>&1; echo "rc=$?"
grep -E "reference|copy|shfl|smem" $OUT/swz_bench_stencil.md | head -30
echo "end $(t)"
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
