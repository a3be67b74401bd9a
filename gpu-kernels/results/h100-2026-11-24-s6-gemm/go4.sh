#!/bin/bash
# Session 6, call 4: after the review (one mma wrapper, swz_mma.cuh): the GEMM and probe GPU tests.
B=.dev-s6/bin; chmod +x $B/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for t in gemm_device peak_device; do
  timeout 280 $B/$t --include-ignored --test-threads=1 > $OUT/$t.log 2>&1; echo "$t rc=$?"
  grep -E "^test |test result" $OUT/$t.log
done
