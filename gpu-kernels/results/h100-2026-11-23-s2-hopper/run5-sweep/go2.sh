#!/bin/bash
# Hopper sweep + short-K raster table with the stmatrix epilogue shipped. bash .dev-h4/go2.sh, carry .dev-h4
D=.dev-h4; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $B/*
echo "start $(date -u +%T)"
timeout 280 $B/hopper_bench $OUT > $OUT/bench.log 2>&1; echo "rc=$?"
ls $OUT; tail -60 $OUT/bench.log
echo "end $(date -u +%T)"
