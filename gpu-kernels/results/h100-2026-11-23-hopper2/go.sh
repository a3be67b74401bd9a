#!/bin/bash
# hopper2's one device call (issue 14): correctness first, then the registry verify of hopper alone, memcheck,
# the interleaved-rounds headline, `swz bench gemm` with the Hopper rows, and last the whole registry verify.
# Run from the repository root with .dev-hopper2 carried: bash .dev-hopper2/go.sh
D=.dev-hopper2; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
[ -d $D/cubins ] && export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $B/*
T=$B/test-gpu-kernels-hopper_device
F=$B/test-gpu-kernels-frame_device
S=$OUT/summary.txt
t() { date -u +%T; }
START=$(date +%s)
# Seconds for a step: at most $1, and never past 395 s from the start (the call's limit is 420 s).
lim() { local l=$(( 395 - ($(date +%s) - START) )); [ $l -gt $1 ] && l=$1; [ $l -lt 5 ] && l=5; echo $l; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 1000 > $OUT/clocks.csv 2>&1 &
SMI=$!
steps() {
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
echo "== 1. hopper_device: ragged sizes first $(t)"
timeout 60 $T --include-ignored --test-threads=1 --nocapture --exact hopper_ragged_sizes_both_types > $OUT/tests.log 2>&1
rc=$?; echo "ragged rc=$rc"; grep -E "test result|panicked" $OUT/tests.log | head -5
if [ "$rc" != 0 ]; then echo "RAGGED FAILED: stopping"; return; fi
echo "== 2. hopper_device: tall-skinny 16384x128x4096 $(t)"
timeout 60 $T --include-ignored --test-threads=1 --nocapture --exact hopper_tall_skinny_16384x128x4096_vs_cublas_and_sampled_host_rows >> $OUT/tests.log 2>&1
echo "tall-skinny rc=$?"; grep -E "16384, 128, 4096|test result|panicked" $OUT/tests.log | tail -4
echo "== 3. hopper_device: every other test $(t)"
timeout $(lim 150) $T --include-ignored --test-threads=1 --nocapture --skip hopper_ragged --skip hopper_tall_skinny >> $OUT/tests.log 2>&1
echo "others rc=$?"; grep -E "^test |test result|panicked" $OUT/tests.log | tail -12
echo "== 4. frame registry verify, hopper alone (FRAME_FAMILIES=hopper) $(t)"
FRAME_FAMILIES=hopper timeout 60 $F --include-ignored --test-threads=1 --nocapture --exact every_registered_family_verifies > $OUT/frame.log 2>&1
echo "frame hopper rc=$?"; grep -E "hopper|test result|panicked" $OUT/frame.log | tail -14
echo "== 5. compute-sanitizer memcheck, shipped (clusters) ragged sizes $(t)"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 $T --include-ignored --test-threads=1 --exact hopper_sanitizer_small > $OUT/sanitizer.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/sanitizer.log | tail -1)"
echo "== 6. headline: interleaved rounds $(t)"
timeout $(lim 120) $B/hopper_bench headline $OUT 30 > /tmp/headline.out 2>&1
echo "headline rc=$?"; grep -vE "^(\||$|- )" /tmp/headline.out | tail -16
echo "== 7. swz bench gemm --sizes 4096 --iters 10 $(t)"
timeout $(lim 90) $B/swz bench gemm --sizes 4096 --iters 10 > $OUT/bench-gemm.md 2>&1
echo "bench gemm rc=$?"; grep -E "^(gemm|hopper)|cuBLAS gemmEx .* - |hopper-|t128x256k32s4 tn" $OUT/bench-gemm.md | head -14
echo "== 8. swz bench gemm --sizes 8192 --only hopper --iters 10 $(t)"
timeout $(lim 40) $B/swz bench gemm --sizes 8192 --only hopper --iters 10 >> $OUT/bench-gemm.md 2>&1
echo "bench gemm 8192 rc=$?"; tail -12 $OUT/bench-gemm.md | grep -E "hopper|cuBLAS"
echo "== 9. frame registry verify, every family $(t)"
timeout $(lim 150) $F --include-ignored --test-threads=1 --nocapture --exact every_registered_family_verifies > /tmp/frame-all.log 2>&1
echo "frame all rc=$?"; grep -E "specs x|test result|panicked|FAILED" /tmp/frame-all.log | cut -c1-160 | head -12
grep -vE "^  (transpose|stencil|seed002|matmul-l2) .*: ok" /tmp/frame-all.log >> $OUT/frame.log; true
echo "end $(t)"
}
steps > $S 2>&1
kill $SMI 2>/dev/null
cat $S
