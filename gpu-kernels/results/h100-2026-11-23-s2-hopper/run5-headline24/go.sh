#!/bin/bash
# Hopper final check with the stmatrix epilogue shipped (lead, session 2). From the repo root: bash .dev-h4/go.sh, carry .dev-h4
D=.dev-h4; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $B/*; H=$B/test-gpu-kernels-hopper_device; F=$B/test-gpu-kernels-frame_device
t() { date -u +%T; }
{
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "== SASS (shipped bf16 cubin)"; cuobjdump -sass $D/hopper_bf16.cubin | grep -oE "HGMMA\.[0-9A-Za-z.]*|UTMALDG[.0-9A-Z]*|USETMAXREG[.A-Z]*|STSM[.0-9A-Z]*| LDL| STL" | sort | uniq -c
echo "== 1. every hopper_device test $(t)"
timeout 240 $H --include-ignored --test-threads=1 > $OUT/tests.log 2>&1
echo "rc=$?"; grep -E "^test |test result|panicked" $OUT/tests.log | cut -c1-160 | tail -16
echo "== 2. sanitizers on hopper_sanitizer_small (the shipped spec) $(t)"
for tool in memcheck racecheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $H --include-ignored --exact hopper_sanitizer_small > $OUT/san_$tool.log 2>&1
echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san_$tool.log | tail -1)"; done
echo "== 3. registry verify, hopper $(t)"
FRAME_FAMILIES=hopper timeout 60 $F --include-ignored --test-threads=1 --nocapture --exact every_registered_family_verifies > $OUT/frame.log 2>&1
echo "rc=$?"; grep -E "^hopper:|test result|panicked" $OUT/frame.log | cut -c1-200
echo "== 4. headline, 24 interleaved rounds $(t)"
timeout 200 $B/hopper_bench headline $OUT 24 > $OUT/headline.log 2>&1; echo "rc=$?"
grep -E "^\|" $OUT/hopper_headline.md | head -16
echo "== 5. swz bench gemm --only hopper, 4096 and 8192 $(t)"
timeout 60 $B/swz bench gemm --sizes 4096,8192 --only hopper --iters 10 > $OUT/swz_bench.md 2>&1; echo "rc=$?"
grep -E "reference|hopper-" $OUT/swz_bench.md | head -12
echo "end $(t)"
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
