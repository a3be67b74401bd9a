#!/usr/bin/env bash
# The GPU checks and measurements of gpu-kernels, in one script for the device machine (which has no Rust
# toolchain). Build here first:
#   ../shared/tools/stage-gpu -p gpu-kernels -p swizzle-cli        (release test binaries + bins into .devbin/)
# (outside this workplace: `cargo test --release -p gpu-kernels --no-run` and `cargo build --release -p
#  swizzle-cli`, then copy each gpu-kernels test binary to .devbin/test-gpu-kernels-<test target name> and
#  target/release/{swz,smem_profile} to .devbin/)
# then on the device, from the repository root (carry .devbin):
#   OUT=/some/dir gpu-kernels/device.sh info tests sanitizer ncu bench
# Every step runs for every kernel family of gpu-kernels' registry (`smem_profile families`), or for the families
# named in $FAMILIES (space-separated). Steps (any order, any subset):
#   info       nvidia-smi, libraries and tools found
#   tests      every gpu-kernels test binary, ignored (GPU) tests included; $TEST_SKIP (a test name) is skipped
#                                                                                   -> tests.log
#   sanitizer  compute-sanitizer memcheck and racecheck over `smem_profile verify FAMILY` (every spec once, at
#              the family's first, ragged, verification size)                    -> sanitizer.log
#   ncu        Nsight Compute smem counters of every spec with smem accesses (as shipped; the smem-only build;
#              smem-only with one block per SM), the bank model's prediction beside them
#                                                                     -> ncu-FAMILY-csv.tar.gz, ncu_compare-FAMILY.md
#   bench      swz bench FAMILY (the family's default sizes)                  -> bench-FAMILY.md, bench-FAMILY.json
#   report     swz report (the main job, GPU mode)                                   -> report.md
# Each step prints a short summary; the full output is under $OUT. Exit status: 1 if any step failed.
set -u
OUT=${OUT:-/tmp/gpu-kernels-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=${B:-.devbin}
failed=()
FAMILIES=${FAMILIES:-$($B/smem_profile families)}

step() { echo "=== $1 ($(date -u +%H:%M:%S))"; }
note() { if [ "$1" -ne 0 ]; then failed+=("$2"); echo "FAILED: $2 (exit $1)"; fi; }

NCU_METRICS=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum

NCU_SASS_METRICS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum

for s in "$@"; do
  case $s in
  info)
    step info
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    ls /usr/local/cuda/lib64/libnvrtc.so* 2>&1 | head -3
    command -v ncu compute-sanitizer
    ;;
  tests)
    step tests
    : >"$OUT/tests.log"
    skip=()
    [ -n "${TEST_SKIP:-}" ] && skip=(--skip "$TEST_SKIP")
    for t in $B/test-gpu-kernels-*; do
      "$t" --include-ignored --test-threads=1 --nocapture "${skip[@]}" >>"$OUT/tests.log" 2>&1
      note $? "$t"
    done
    grep -E "^test result|FAILED|panicked|[0-9]+x[0-9]+:|failures" "$OUT/tests.log" | head -60
    ;;
  sanitizer)
    step sanitizer
    : >"$OUT/sanitizer.log"
    for fam in $FAMILIES; do
      for tool in memcheck racecheck; do
        cmd=(compute-sanitizer --tool "$tool" --error-exitcode 1 $B/smem_profile verify "$fam")
        echo "\$ ${cmd[*]}" >>"$OUT/sanitizer.log"
        "${cmd[@]}" >>"$OUT/sanitizer.log" 2>&1
        rc=$?
        note $rc "compute-sanitizer $tool $fam"
        echo "$fam $tool: exit $rc" | tee -a "$OUT/sanitizer.log"
      done
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|test result|Hazard" "$OUT/sanitizer.log" | head -20
    ;;
  ncu)
    step ncu
    for fam in $FAMILIES; do
      k="regex:$($B/smem_profile entries "$fam")"
      for mode in run run-smem-only run-smem-only-1blk; do
        ncu --clock-control none --kernel-name "$k" --csv --log-file "$OUT/ncu-$fam-$mode.csv" \
          --metrics "$NCU_METRICS" $B/smem_profile $mode "$fam" | tail -1
        note $? "ncu smem_profile $mode $fam"
      done
      # Per-instruction (SASS-patched) counts on the shipped kernels: what each instruction's own addresses cost.
      ncu --clock-control none --kernel-name "$k" --csv --log-file "$OUT/ncu-$fam-sass.csv" \
        --metrics "$NCU_SASS_METRICS" $B/smem_profile run "$fam" | tail -1
      note $? "ncu smem_profile run $fam (SASS metrics)"
      $B/smem_profile compare "$fam" "$OUT/ncu-$fam-run.csv" "$OUT/ncu-$fam-run-smem-only.csv" \
        "$OUT/ncu-$fam-run-smem-only-1blk.csv" | tee "$OUT/ncu_compare-$fam.md"
      note "${PIPESTATUS[0]}" "smem_profile compare $fam"
      (cd "$OUT" && tar czf "ncu-$fam-csv.tar.gz" ncu-"$fam"-*.csv && rm ncu-"$fam"-*.csv)
    done
    ;;
  bench)
    step bench
    for fam in $FAMILIES; do
      $B/swz bench "$fam" --iters 50 --json "$OUT/bench-$fam.json" >"$OUT/bench-$fam.md" 2>&1
      note $? "swz bench $fam"
      grep -E "^device|^$fam|^reference|\| (D2D copy|cuBLAS)" "$OUT/bench-$fam.md" | head -60
    done
    ;;
  report)
    step report
    $B/swz report >"$OUT/report.md" 2>&1
    note $? "swz report"
    grep -E "^mode|^## |variants at|wrong|^reference|\| (D2D copy|cuBLAS)" "$OUT/report.md" | head -40
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
