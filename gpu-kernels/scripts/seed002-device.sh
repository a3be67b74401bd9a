#!/usr/bin/env bash
# seed002 on the device: GPU tests, compute-sanitizer, ncu predicted vs measured.
set -u
D=$(dirname "$0"); OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== tests $(date -u +%T)"
$D/test-gpu-kernels-seed002_device --include-ignored --test-threads=1 --nocapture > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "test result|FAILED|panicked|max rel err" $OUT/tests.log | sort | uniq -c | sort -rn | head -40
echo "=== sanitizer $(date -u +%T)"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 $D/test-gpu-kernels-seed002_device --include-ignored --exact sanitizer_pass --test-threads=1 > $OUT/san-$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK' $OUT/san-$tool.log | tail -1)"
done
echo "=== ncu $(date -u +%T)"
M=smsp__inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
ncu --clock-control none --kernel-name regex:seed002_ --csv --log-file $OUT/ncu.csv --metrics $M $D/seed002_profile run 2>&1 | tail -3
M2=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_op_stsm.sum
ncu --clock-control none --kernel-name regex:seed002_ --csv --log-file $OUT/ncu2.csv --metrics $M2 $D/seed002_profile run > /dev/null 2>&1; echo "ncu2 rc=$?"
grep -E "stsm|mem_shared.sum" $OUT/ncu2.csv | awk -F'","' '{print $1, $5, $(NF-2), $NF}' | head -20
$D/seed002_profile compare $OUT/ncu.csv $OUT/ncu2.csv | tee $OUT/ncu_compare.md; echo "compare rc=${PIPESTATUS[0]}"
echo "=== done $(date -u +%T)"
