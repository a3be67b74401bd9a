#!/bin/bash
# `swz bench stencil` on the GPU (lead, session 2). bash .dev-le/go2.sh, carry .dev-le
D=.dev-le; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
echo "start $(date -u +%T)"
timeout 200 $B/swz bench stencil --sizes 134217728 --iters 10 > $OUT/swz_bench_stencil.md 2>&1; echo "rc=$?"
grep -cE "^\|" $OUT/swz_bench_stencil.md; grep -E "reference|k=1 |k=16 " $OUT/swz_bench_stencil.md | head -40
echo "end $(date -u +%T)"
