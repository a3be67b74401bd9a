#!/bin/bash
# Hopper stmatrix-epilogue check (lead, session 2). From the repo root: bash .dev-h3/go.sh, carry .dev-h3
D=.dev-h3; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $B/*; H=$B/test-gpu-kernels-hopper_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== 1. hopper tests: smem epilogue, every sweep variant, ragged $(t)"
timeout 150 $H --include-ignored --test-threads=1 --nocapture hopper_smem_epilogue hopper_every_sweep_variant hopper_ragged_sizes_both_types > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked|stmatrix" $OUT/tests.log | cut -c1-200 | tail -20
echo "== 2. sanitizers on the smem epilogue (ragged, clusters of 2) $(t)"
for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $H --include-ignored --exact hopper_smem_epilogue_sanitizer_small > $OUT/san_$tool.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san_$tool.log | tail -1)"; done
echo "== 3. headline, 12 interleaved rounds: base, shipped, shipped + stmatrix epilogue $(t)"
timeout 200 $B/hopper_bench headline $OUT 12 > $OUT/headline.log 2>&1; echo "rc=$?"
grep -E "^\|" $OUT/hopper_headline.md | head -20
echo "end $(t)"
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
