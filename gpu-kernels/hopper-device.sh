#!/bin/bash
# The Hopper GEMM's device run, from the repository root with the device folder carried (no Rust toolchain there):
#   build here:  /work/brief/stage-gpu -p gpu-kernels      (release test binaries and bins into .devbin/)
#                cargo run -p gpu-kernels --example hopper_cubin -- $D $D/cubins   (SASS cubins + CUBIN cache,
#                with NVRTC 13.0 = the device's; optional: without the cache the device compiles each variant)
#   copy:        .devbin/{hopper_bench,test-gpu-kernels-hopper_device} -> $D/bin/
#   run there:   D=.dev-wgmma OUT=... bash gpu-kernels/hopper-device.sh
# Steps: SASS (HGMMA, UTMALDG[.MULTICAST], USETMAXREG), ragged correctness first (stops if wrong), every other GPU
# test (single-CTA variant, 1000^3 / 4096^3 vs cuBLAS, every sweep variant, the frame path, refusals),
# compute-sanitizer memcheck, then hopper_bench (candidates vs cuBLAS, sweep, short K). Everything under $OUT.
# The headline claim itself is `hopper_bench headline $OUT 30` (interleaved rounds; run 3's whole call, with the
# registry verify `FRAME_FAMILIES=hopper frame_device` and `swz bench gemm`, is results/h100-2026-11-23-hopper2/go.sh).
D=${D:-.dev-wgmma}; B=$D/bin; L=$OUT/log.txt
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
[ -d $D/cubins ] && export SWZ_CUBIN_CACHE=$D/cubins
chmod +x $B/*
T=$B/test-gpu-kernels-hopper_device
{
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
for f in bf16 bf16_single_cta; do
  echo "== SASS hopper_$f.cubin"; cuobjdump -sass $D/hopper_$f.cubin > $OUT/sass_$f.txt 2>&1
  grep -oE "HGMMA\.[0-9A-Za-z.]*|UTMALDG[.0-9A-Z]*|USETMAXREG[.A-Z]*|WARPGROUP\.[A-Z.]*|UCGABAR[_A-Z]*| LDL| STL" $OUT/sass_$f.txt | sort | uniq -c
done
echo "== ragged sizes first"
timeout 60 $T --include-ignored --test-threads=1 --nocapture --exact hopper_ragged_sizes_both_types 2>&1 | tail -14
rc=${PIPESTATUS[0]}
if [ "$rc" != 0 ]; then echo "RAGGED FAILED rc=$rc: stopping"; date -u; exit 0; fi
echo "== other GPU tests"
timeout 150 $T --include-ignored --test-threads=1 --nocapture --skip hopper_ragged 2>&1 | grep -vE "^(bf16|f16) .*rel err" | tail -25
echo "== compute-sanitizer memcheck (ragged sizes)"
timeout 60 compute-sanitizer --tool memcheck $T --include-ignored --exact hopper_sanitizer_small 2>&1 | tail -3
echo "== bench"
timeout 240 $B/hopper_bench $OUT 2>&1 | tail -80
date -u
} > $L 2>&1
tail -c 11500 $L
