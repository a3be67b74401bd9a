#!/bin/bash
# wgmma device call 1: SASS, ragged correctness (stop if wrong), all GPU tests, sanitizer, bench vs cuBLAS.
D=.dev-wgmma; B=$D/bin; L=$OUT/log.txt
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
T=$B/test-gpu-kernels-hopper_device
{
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
echo "== SASS of the shipped bf16 cubin (NVRTC 13.0, sm_90a, compiled on the build machine)"
cuobjdump -sass $D/hopper_bf16.cubin > $OUT/sass.txt 2>&1
grep -oE "HGMMA\.[0-9A-Za-z.]*|UTMALDG[.0-9A-Z]*|USETMAXREG[.A-Z]*|WARPGROUP\.[A-Z.]*|SYNCS\.[A-Z0-9.]*| LDL| STL" $OUT/sass.txt | sort | uniq -c
echo "== ragged sizes first (1x1x16 .. 300x520x136, bf16 + f16)"
timeout 60 $T --include-ignored --test-threads=1 --nocapture --exact hopper_ragged_sizes_both_types 2>&1 | tail -25
rc=${PIPESTATUS[0]}
if [ "$rc" != 0 ]; then echo "RAGGED FAILED rc=$rc: stopping"; date -u; exit 0; fi
echo "== other GPU tests"
timeout 120 $T --include-ignored --test-threads=1 --nocapture --skip hopper_ragged 2>&1 | tail -45
echo "== compute-sanitizer memcheck (ragged sizes, bf16)"
timeout 90 compute-sanitizer --tool memcheck $T --include-ignored --exact hopper_sanitizer_small 2>&1 | tail -5
echo "== bench"
timeout 200 $B/hopper_bench $OUT 2>&1 | tail -60
date -u
} > $L 2>&1
tail -c 11500 $L
