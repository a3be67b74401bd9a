#!/usr/bin/env bash
# The one device entry point: every GPU check and measurement of the workspace, from prebuilt binaries, on a GPU
# machine without cargo. It calls only `swz`, the staged test binaries and NVIDIA's tools.
#
# Build (on a machine with the Rust toolchain), from the repository root:
#   cargo test --release --workspace --no-run      then copy each test binary to $B/test-<package>-<target>
#   cargo build --release -p swizzle-cli           then copy target/release/swz to $B/
# (a staging tool that does both may exist where you work). Then on the GPU machine, from the repository root:
#   OUT=out scripts/device.sh quick                 ~3 min: the new subcommands end to end
#   OUT=out scripts/device.sh full                  every check below except the long tuning runs
#   OUT=out scripts/device.sh tests verify ...      any steps, any order
# Environment: B (binaries, default .devbin), OUT (results, default ./device-out), FAMILIES (default: every
# family of the registry, `swz verify all --list`), TEST_SKIP (a test name to skip).
#
# Steps (each writes its full output under $OUT and prints a summary):
#   info       nvidia-smi, libraries and tools found
#   tests      every gpu-kernels and gpu-bench test binary, GPU (ignored) tests included      -> tests.log
#   verify     the registry verification: every spec of every family at every size      -> verify.log
#   sanitize   compute-sanitizer memcheck and racecheck over `swz verify FAMILY --first-size` -> sanitize.log
#   ncu        Nsight Compute smem counters of every profiled spec (each build the family has), the bank model's
#              prediction beside them (`swz profile FAMILY compare`)          -> ncu-FAMILY-*.csv, ncu-FAMILY.md
#   bench      swz bench FAMILY (default sizes, 50 runs)                          -> bench-FAMILY.md/.json
#   tune       swz tune hopper headline, swz tune gemm rounds, swz tune stencil     -> tune-*.md/.json
#   sass       swz ptxas FAMILY --cubins, then cuobjdump -sass with addresses stripped     -> sass/FAMILY/*.sass
#   report     swz report (GPU mode)                                             -> report.md, report.err
#   l2         matmul-l2 GPU tests, swz l2-study, ncu L2 hit rate/DRAM bytes per (shape, order) -> l2-*.md/.csv
#   peer       torch avg_pool1d against a D2D copy (the stencil's framework peer; needs torch)   -> peer.md
#   fp8-block-peer  DeepGEMM's block-scaled FP8 GEMM against cuBLASLt per-tensor (scripts/fp8_block_peer.py), from
#              the first `sgl-deep-gemm` wheel of $DG_WHEELS (default .devbin-dg/*.whl, newest first; other wheels
#              there, e.g. its dependencies, are unpacked beside it) that imports against this torch, with the script's
#              options from FP8_BLOCK_PEER_ARGS (e.g. "--sustained 2 --passes 3") -> fp8-block-peer.md
#   fp8-row-peer  torch's row-wise scaled FP8 GEMM (per token x per output channel) against cuBLASLt per-tensor
#              (scripts/fp8_row_peer.py; the LLM layers at M = 16 and 128 unless FP8_ROW_SHAPES; one operand set,
#              L2-resident where it fits, with FP8_ROW_RESIDENT=1) -> fp8-row-peer.md
#   bank-probe nvcc + ncu over swizzle-core/tests/data/bank_probe (the bank model's ground truth) -> bank-probe.csv
# Groups: quick = info verify-quick bench-quick tune-quick ncu-quick; full = info tests verify sanitize ncu bench
# sass report. Exit status 1 if any step failed.
set -u
OUT=${OUT:-$PWD/device-out}
B=${B:-.devbin}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x "$B"/* 2>/dev/null
SWZ=$B/swz
failed=()
step() { echo "=== $1 ($(date -u +%H:%M:%S))"; }
note() { if [ "$1" -ne 0 ]; then failed+=("$2"); echo "FAILED: $2 (exit $1)"; fi; }
FAMILIES=${FAMILIES:-$($SWZ verify all --list | cut -d: -f1)}

# ncu_family FAMILY [SIZE]: every build the family has under ncu, then the comparison (the last build judged).
ncu_family() {
  local fam=$1 k csvs=() build
  k="regex:$($SWZ profile "$fam" entries)"
  for build in $($SWZ profile "$fam" builds); do
    ncu --clock-control none --kernel-name "$k" --csv --log-file "$OUT/ncu-$fam-$build.csv" \
      --metrics "$($SWZ profile "$fam" metrics)" $SWZ profile "$fam" run --build "$build" ${2:+--size $2} | tail -1
    note $? "ncu $fam $build"
    csvs+=("$OUT/ncu-$fam-$build.csv")
  done
  $SWZ profile "$fam" compare "${csvs[@]}" | tee "$OUT/ncu-$fam.md" | tail -3
  note "${PIPESTATUS[0]}" "swz profile $fam compare"
}

run_step() {
  case $1 in
  info)
    step info
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit --format=csv
    ls /usr/local/cuda/lib64/libnvrtc.so* 2>&1 | head -3
    command -v ncu compute-sanitizer cuobjdump
    $SWZ --version
    ;;
  tests)
    step tests
    : >"$OUT/tests.log"
    local skip=() t
    [ -n "${TEST_SKIP:-}" ] && skip=(--skip "$TEST_SKIP")
    for t in "$B"/test-gpu-kernels-* "$B"/test-gpu-bench-*; do
      "$t" --include-ignored --test-threads=1 "${skip[@]}" >>"$OUT/tests.log" 2>&1
      note $? "$t"
    done
    grep -E "^test result|FAILED|panicked" "$OUT/tests.log" | sort | uniq -c
    ;;
  verify)
    step verify
    $SWZ verify all >"$OUT/verify.log" 2>&1
    note $? "swz verify all"
    grep -E "specs|FAILED" "$OUT/verify.log"
    ;;
  verify-quick)
    step verify-quick
    $SWZ verify all --first-size >"$OUT/verify.log" 2>&1
    note $? "swz verify all --first-size"
    grep -E "specs|FAILED" "$OUT/verify.log"
    ;;
  sanitize)
    step sanitize
    : >"$OUT/sanitize.log"
    local fam tool rc
    for fam in $FAMILIES; do
      for tool in memcheck racecheck; do
        echo "\$ compute-sanitizer --tool $tool swz verify $fam --first-size" >>"$OUT/sanitize.log"
        compute-sanitizer --tool "$tool" --error-exitcode 1 $SWZ verify "$fam" --first-size >>"$OUT/sanitize.log" 2>&1
        rc=$?
        note $rc "compute-sanitizer $tool $fam"
        echo "$fam $tool: exit $rc"
      done
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitize.log" | sort | uniq -c
    ;;
  ncu)
    step ncu
    local fam
    for fam in $FAMILIES; do ncu_family "$fam"; done
    ;;
  ncu-quick)
    step ncu-quick
    ncu_family transpose
    ;;
  bench)
    step bench
    local fam
    for fam in $FAMILIES; do
      [ "$fam" = hopper ] && continue # `swz bench gemm` runs the Hopper GEMM's rows too
      $SWZ bench "$fam" --iters 50 --json "$OUT/bench-$fam.json" >"$OUT/bench-$fam.md" 2>"$OUT/bench-$fam.err"
      note $? "swz bench $fam"
      grep -E "^device|^\| (D2D copy|cuBLAS)" "$OUT/bench-$fam.md" | head -20
    done
    ;;
  bench-quick)
    step bench-quick
    $SWZ bench transpose --iters 10 --json "$OUT/bench-transpose.json" >"$OUT/bench-transpose.md" 2>&1
    note $? "swz bench transpose"
    $SWZ bench gemm --shapes 4096x4096x4096 --iters 10 --json "$OUT/bench-gemm.json" >"$OUT/bench-gemm.md" 2>&1
    note $? "swz bench gemm --shapes 4096x4096x4096"
    grep -E "^device|cuBLAS|D2D" "$OUT"/bench-*.md | head -20
    ;;
  tune)
    step tune
    $SWZ tune hopper headline --rounds 24 --out "$OUT/tune-hopper" >"$OUT/tune-hopper.md" 2>&1
    note $? "swz tune hopper headline"
    $SWZ tune gemm rounds --json "$OUT/tune-gemm-rounds.json" >"$OUT/tune-gemm-rounds.md" 2>&1
    note $? "swz tune gemm rounds"
    $SWZ tune stencil --json "$OUT/tune-stencil.json" >"$OUT/tune-stencil.md" 2>&1
    note $? "swz tune stencil"
    grep -E "\*\*|^summary" "$OUT"/tune-*.md | head -30
    ;;
  tune-quick)
    step tune-quick
    $SWZ tune gemm rounds --shapes 4096x4096x4096 --dtypes fp16 --b tn --rounds 3 >"$OUT/tune-gemm-rounds.md" 2>&1
    note $? "swz tune gemm rounds (short)"
    tail -6 "$OUT/tune-gemm-rounds.md"
    ;;
  sass)
    step sass
    local fam f
    for fam in $FAMILIES; do
      mkdir -p "$OUT/sass"
      $SWZ ptxas "$fam" --cubins "$OUT/sass/$fam" >"$OUT/sass/$fam.ptxas.log" 2>&1 || note $? "swz ptxas $fam"
      for f in "$OUT/sass/$fam"/*.cubin; do
        # Addresses (/*0a10*/) and the encodings' hex comments differ between builds that are otherwise equal.
        cuobjdump -sass "$f" | sed -E 's@/\*[0-9a-f]{4,}\*/@@g; s@/\* 0x[0-9a-f]+ \*/@@g; s/[[:space:]]+/ /g' \
          | grep -v '^ *$' >"${f%.cubin}.sass"
      done
      (cd "$OUT/sass/$fam" && sha256sum ./*.sass >../"$fam.sha256")
      echo "$fam: $(ls "$OUT/sass/$fam"/*.sass | wc -l) kernels"
    done
    ;;
  report)
    step report
    $SWZ report >"$OUT/report.md" 2>"$OUT/report.err" # stderr: progress, one line per family and phase
    note $? "swz report"
    grep -E "^mode|^## |wrong" "$OUT/report.md" | head -20
    ;;
  l2)
    step l2
    timeout 120 "$B/test-gpu-kernels-matmul_l2_device" --include-ignored --test-threads=1 >"$OUT/l2-tests.log" 2>&1
    note $? "matmul_l2_device tests"
    timeout 150 $SWZ l2-study --budget-ms 150 --warmup 2 --json "$OUT/l2-bench.json" >"$OUT/l2-bench.md" 2>&1
    note $? "swz l2-study"
    # Every (shape, order) launched once, profiled once each; ncu flushes L2 before each profiled kernel, as the
    # model starts from an empty L2.
    timeout 170 ncu --clock-control none --kernel-name matmul_l2 --print-units base --csv --log-file "$OUT/l2-ncu.csv" \
      --metrics lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum \
      $SWZ l2-study --once --shapes 1024x1024x1024,2048x2048x2048,4096x4096x4096,1024x1024x128,16384x16384x128 \
      >"$OUT/l2-cases.txt"
    note $? "ncu matmul-l2"
    grep -c launched "$OUT/l2-cases.txt"
    ;;
  peer)
    step peer
    PYTHONUNBUFFERED=1 timeout 60 python3 scripts/stencil_torch_peer.py --n 27 >"$OUT/peer.md" 2>&1
    note $? "torch stencil peer"
    tail -12 "$OUT/peer.md"
    ;;
  fp8-row-peer)
    step fp8-row-peer
    PYTHONUNBUFFERED=1 timeout 400 python3 scripts/fp8_row_peer.py ${FP8_ROW_SHAPES:+--shapes $FP8_ROW_SHAPES} \
      ${FP8_ROW_RESIDENT:+--l2-resident} >"$OUT/fp8-row-peer.md" 2>&1
    note $? "fp8 row peer"
    tail -16 "$OUT/fp8-row-peer.md"
    ;;
  fp8-block-peer)
    step fp8-block-peer
    # Each wheel is built against one torch version: unpack them one at a time until `import deep_gemm` works.
    # Older wheels load their ops through apache-tvm-ffi (its libtvm_ffi.so under tvm_ffi/lib).
    local w dg="" dir dep
    for w in $(ls -r ${DG_WHEELS:-.devbin-dg/*.whl} 2>/dev/null | grep sgl_deep_gemm); do
      dir=${TMPDIR:-/tmp}/deep_gemm-$(basename "$w" .whl)
      rm -rf "$dir" && mkdir -p "$dir"
      for dep in $(ls ${DG_WHEELS:-.devbin-dg/*.whl} | grep -v sgl_deep_gemm) "$w"; do
        python3 -m zipfile -e "$dep" "$dir"
      done
      if PYTHONPATH=$dir LD_LIBRARY_PATH=$dir/tvm_ffi/lib:$LD_LIBRARY_PATH python3 -c "import deep_gemm" \
        >"$OUT/fp8-block-peer-import-$(basename "$w" .whl).log" 2>&1; then
        dg=$dir
        break
      fi
      echo "$(basename "$w"): import deep_gemm failed: $(grep -E 'Error|error' "$OUT/fp8-block-peer-import-$(basename "$w" .whl).log" | head -1)"
    done
    if [ -z "$dg" ]; then
      note 1 "fp8 block peer: no DeepGEMM wheel imports"
    else
      PYTHONUNBUFFERED=1 PYTHONPATH=$dg LD_LIBRARY_PATH=$dg/tvm_ffi/lib:$LD_LIBRARY_PATH timeout 400 \
        python3 scripts/fp8_block_peer.py ${FP8_BLOCK_PEER_ARGS:-} >"$OUT/fp8-block-peer.md" 2>&1
      note $? "fp8 block peer"
      tail -9 "$OUT/fp8-block-peer.md"
    fi
    ;;
  bank-probe)
    step bank-probe
    # Each case-file line "OP_ID a0 ... a31" launches one 1-warp kernel issuing one shared-memory instruction;
    # its wavefronts are ..._op_ld.sum + ..._op_st.sum (the all-ops total carries one launch-overhead wavefront).
    local d=swizzle-core/tests/data/bank_probe
    (cd "$d" && python3 gen.py && nvcc -O2 -arch=sm_90 -o "$OUT/probe" probe.cu) >"$OUT/bank-probe.log" 2>&1 &&
      ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
        --csv "$OUT/probe" "$d/cases.txt" >"$OUT/bank-probe.csv" 2>>"$OUT/bank-probe.log"
    note $? "bank probe"
    ;;
  quick) for s in info verify-quick bench-quick tune-quick ncu-quick; do run_step $s; done ;;
  full) for s in info tests verify sanitize ncu bench sass report; do run_step $s; done ;;
  *) echo "unknown step $1"; failed+=("$1") ;;
  esac
}

[ $# -gt 0 ] || set -- quick
for s in "$@"; do run_step "$s"; done
step done
if [ ${#failed[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}"
  exit 1
fi
echo "all steps passed"
