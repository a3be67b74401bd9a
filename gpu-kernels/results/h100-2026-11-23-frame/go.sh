#!/usr/bin/env bash
# frame (issue 8) device run: old (main b06ac9a) and new (branch frame) transpose side by side in one run.
#   .dev-frame/old/swz            built from b06ac9a
#   .dev-frame/new/{swz,smem_profile,test-gpu-kernels-*}   built from branch frame
#   .dev-frame/device.sh          gpu-kernels/device.sh of branch frame (family-generic)
set -u
D=.dev-frame
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
mkdir -p "$OUT/x"
exec > >(tee "$OUT/go.log") 2>&1
echo "=== start $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
echo "=== bench new then old (t=$(el))"
$D/new/swz bench transpose --iters 50 --json "$OUT/x/bench-new.json" >"$OUT/bench-new.md" 2>&1; echo "new rc=$? t=$(el)"
$D/old/swz bench transpose --iters 50 --json "$OUT/x/bench-old.json" >"$OUT/bench-old.md" 2>&1; echo "old rc=$? t=$(el)"
echo "=== ncu + sanitizer (new; t=$(el))"
OUT="$OUT" B=$D/new bash $D/device.sh ncu sanitizer 2>&1 | grep -vE '^\| smem-' | tail -25
echo "=== tests (new; t=$(el))"
: >"$OUT/tests.log"
left=$(( 150 - $(el) ))
for t in transpose_device frame_device runtime gpu_kernels header_device nvrtc_compile smem_profile; do
  b=$D/new/test-gpu-kernels-$t
  [ -x "$b" ] || continue
  left=$(( 150 - $(el) ))
  if [ $left -le 3 ]; then echo "NOT RUN (time): $t" | tee -a "$OUT/tests.log"; continue; fi
  echo "### $t (limit ${left}s)" >>"$OUT/tests.log"
  timeout $left "$b" --include-ignored --test-threads=1 --nocapture --skip transpose_16384x16384 >>"$OUT/tests.log" 2>&1
  echo "$t rc=$? t=$(el)"
done
grep -E "^test result|FAILED|panicked|failures:|kernels checked|specs x|TFLOP|GB/s" "$OUT/tests.log" | head -40
if [ "$(el)" -lt 125 ]; then
  echo "=== second bench pair, old then new (t=$(el))"
  $D/old/swz bench transpose --iters 50 --sizes 16384 >"$OUT/x/bench-old-2.md" 2>&1; echo "old2 rc=$? t=$(el)"
  $D/new/swz bench transpose --iters 50 --sizes 16384 >"$OUT/x/bench-new-2.md" 2>&1; echo "new2 rc=$? t=$(el)"
fi
(cd "$OUT" && tar czf bench-extra.tar.gz x && rm -rf x)
echo "=== done t=$(el) $(date -u +%FT%TZ)"
grep -E "^transpose|^\| (D2D|smem-swizzled-t64v4|smem-swizzled-t128v8|smem-padded-t32|copyVec16) " "$OUT/bench-new.md" | head -40
