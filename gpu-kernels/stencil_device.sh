#!/usr/bin/env bash
# The stencil family's GPU checks and measurements in one script for the device machine (no Rust there).
# Build here first:  ../shared/tools/stage-gpu -p gpu-kernels   (release test binaries + bins into .devbin/)
# then on the device, from the folder holding .devbin/ and scripts/:
#   OUT=/some/dir B=.devbin bash stencil_device.sh tests bench peer sanitizer
# Steps (any order, any subset):
#   tests      the stencil GPU tests (every variant vs the host reference)          -> stencil-tests.log
#   bench      stencil_bench: n = 2^27, 2^28; k = 1, 2, 4, 8, 16; every variant      -> stencil-bench.md/.json
#   peer       torch avg_pool1d against D2D in the same process (n = 2^27)           -> stencil-peer.md
#   sanitizer  compute-sanitizer memcheck and racecheck over sanitizer_pass_stencil  -> stencil-sanitizer.log
set -u
OUT=${OUT:-/tmp/stencil-out}
B=${B:-.devbin}
S=${S:-$(dirname "$0")/scripts}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
failed=()
step() { echo "=== $1 ($(date -u +%H:%M:%S))"; }
note() { if [ "$1" -ne 0 ]; then failed+=("$2"); echo "FAILED: $2 (exit $1)"; fi; }
T=$B/test-gpu-kernels-stencil_device

for s in "$@"; do
  case $s in
  tests)
    step tests
    timeout 150 "$T" --ignored --test-threads=1 --nocapture --skip every_stencil_variant_compiles --skip sanitizer_pass \
      >"$OUT/stencil-tests.log" 2>&1
    note $? "stencil tests"
    grep -E "^test |test result|runs on sizes|failures|wrong|panicked" "$OUT/stencil-tests.log" | head -40
    ;;
  bench)
    step bench
    timeout 120 $B/stencil_bench --n 27,28 --k 1,2,4,8,16 --iters 50 --json "$OUT/stencil-bench.json" \
      >"$OUT/stencil-bench.md" 2>"$OUT/stencil-bench.err"
    note $? "stencil_bench"
    tail -3 "$OUT/stencil-bench.err"
    sed -n '/^summary/,$p' "$OUT/stencil-bench.md"
    ;;
  peer)
    step peer
    PYTHONUNBUFFERED=1 timeout 60 python3 "$S/stencil_torch_peer.py" --n 27 >"$OUT/stencil-peer.md" 2>&1
    note $? "torch peer"
    cat "$OUT/stencil-peer.md" | tail -12
    ;;
  sanitizer)
    step sanitizer
    : >"$OUT/stencil-sanitizer.log"
    for tool in memcheck racecheck; do
      cmd=(compute-sanitizer --tool "$tool" --error-exitcode 1 "$T" --ignored --exact sanitizer_pass_stencil
        --test-threads=1 --nocapture)
      echo "\$ ${cmd[*]}" >>"$OUT/stencil-sanitizer.log"
      timeout 90 "${cmd[@]}" >>"$OUT/stencil-sanitizer.log" 2>&1
      rc=$?
      note $rc "compute-sanitizer $tool"
      echo "$tool: exit $rc" | tee -a "$OUT/stencil-sanitizer.log"
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|test result|runs on" "$OUT/stencil-sanitizer.log" | head -20
    ;;
  *) echo "unknown step $s"; failed+=("$s") ;;
  esac
done
step done
if [ ${#failed[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}"
  exit 1
fi
echo "all steps passed"
