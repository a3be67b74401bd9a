#!/usr/bin/env bash
# The stencil family's GPU checks and measurements in one script for the device machine (no Rust there).
# Build here first:  ../shared/tools/stage-gpu -p gpu-kernels   (release test binaries + bins into .devbin/)
# then on the device, from the folder holding .devbin/ and scripts/:
#   OUT=/some/dir B=.devbin bash stencil_device.sh tests bench peer sanitizer
# Steps (any order, any subset):
#   tests      the stencil GPU tests (every variant vs the host reference), in parallel -> stencil-tests.log
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
    # One process per test, all at once: NVRTC compiles (one per variant, radius and type) are CPU-bound and the
    # device machine has 16 cores. The 2^27 + 13 test alone takes ~45 s on an H100 (512 MiB downloads).
    step tests
    pids=()
    for t in a_wrong_kernel_is_caught stencil_2e27_plus_13 stencil_small_sizes_fp32 stencil_small_sizes_i32 \
      stencil_other_radii_fp32; do
      timeout 90 "$T" --ignored --exact $t --test-threads=1 --nocapture >"$OUT/test-$t.log" 2>&1 &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; note $? "stencil test (pid $p)"; done
    cat "$OUT"/test-*.log >"$OUT/stencil-tests.log" && rm "$OUT"/test-*.log
    grep -E "^test |runs on sizes|failures|wrong|panicked" "$OUT/stencil-tests.log" | head -40
    ;;
  bench)
    step bench
    timeout 60 $B/stencil_bench --n 27,28 --k 1,2,4,8,16 --iters 50 --json "$OUT/stencil-bench.json" \
      >"$OUT/stencil-bench.md" 2>"$OUT/stencil-bench.err"
    note $? "stencil_bench"
    tail -3 "$OUT/stencil-bench.err"
    sed -n '/^summary/,$p' "$OUT/stencil-bench.md"
    ;;
  peer)
    step peer
    PYTHONUNBUFFERED=1 timeout 35 python3 "$S/stencil_torch_peer.py" --n 27 >"$OUT/stencil-peer.md" 2>&1
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
      timeout 40 "${cmd[@]}" >>"$OUT/stencil-sanitizer.log" 2>&1
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
