#!/bin/bash
# Follow-up for the lead (NOT run by hopper2: its budget was one call). Checks the fix of the hopper family's frame
# launch (B map box = the cluster slice) on the device: the registry verify of hopper, the hopper_device tests the
# hang cut off, and `swz bench gemm` with the Hopper rows. ~2 minutes. From the repository root:
#   run: bash .dev-hopper2/go2.sh   carry [".dev-hopper2"]   timeout_s 300
D=.dev-hopper2; B=$D/bin; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
[ -d $D/cubins ] && export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $B/*
T=$B/test-gpu-kernels-hopper_device; F=$B/test-gpu-kernels-frame_device; S=$OUT/summary2.txt
t() { date -u +%T; }
steps() {
echo "start $(t)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== 1. frame registry verify, hopper alone $(t)"
FRAME_FAMILIES=hopper timeout 60 $F --include-ignored --test-threads=1 --nocapture --exact every_registered_family_verifies > $OUT/frame2.log 2>&1
echo "frame hopper rc=$?"; grep -E "hopper|test result|panicked" $OUT/frame2.log | tail -14
echo "== 2. hopper_device: frame verify, single-CTA variant, refusals $(t)"
timeout 90 $T --include-ignored --test-threads=1 --nocapture hopper_frame_verify_all hopper_single_cta_variant hopper_misaligned > $OUT/tests2.log 2>&1
echo "tests rc=$?"; grep -E "^test |test result|panicked" $OUT/tests2.log | tail -8
echo "== 3. memcheck of the frame path (hopper registry verify under compute-sanitizer) $(t)"
FRAME_FAMILIES=hopper timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $F --include-ignored --test-threads=1 --exact every_registered_family_verifies > $OUT/sanitizer2.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/sanitizer2.log | tail -1)"
echo "== 4. swz bench gemm --sizes 4096 --iters 10 (gemm family, then hopper) $(t)"
timeout 90 $B/swz bench gemm --sizes 4096 --iters 10 > $OUT/bench-gemm2.md 2>&1
echo "rc=$?"; grep -E "^(gemm|hopper) |cuBLAS gemmEx .* - |hopper-|t128x256k32s4 tn" $OUT/bench-gemm2.md | head -14
echo "== 5. swz bench gemm --sizes 8192 --only hopper --iters 10 $(t)"
timeout 40 $B/swz bench gemm --sizes 8192 --only hopper --iters 10 >> $OUT/bench-gemm2.md 2>&1
echo "rc=$?"; tail -12 $OUT/bench-gemm2.md | grep -E "hopper|cuBLAS"
echo "end $(t)"
}
steps > $S 2>&1
cat $S
