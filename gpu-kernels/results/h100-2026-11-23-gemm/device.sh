#!/bin/bash
# GEMM device call 3 (final): correctness of every variant, GPU tests, sanitizer, ncu vs model, SASS, the bench.
D=.dev-gemm; B=$D/bin; L=$OUT/log.txt
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
chmod +x $B/*
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== SASS"
for f in $D/cub/*.cubin; do echo "-- $f"; cuobjdump -sass $f | grep -oE "HMMA\.[0-9A-Z.]*|LDSM[.A-Z0-9]*|STSM[.A-Z0-9]*|LDGSTS[.A-Z0-9]*| LDL| STL" | sort | uniq -c; done
echo "== check (every variant, ragged) $(date -u +%T)"
timeout 60 $B/gemm_bench check 2>&1 | grep -v "^ok" | tail -8
echo "== GPU tests $(date -u +%T)"
timeout 70 $B/test-gpu-kernels-gemm_device --include-ignored --test-threads=4 --nocapture --skip every_spec_ragged 2>&1 | grep -E "4096x|16384x|1000x1000x1000 |^test |test result"
echo "== memcheck / racecheck $(date -u +%T)"
timeout 40 compute-sanitizer --tool memcheck $B/test-gpu-kernels-gemm_device --include-ignored --exact sanitizer_small 2>&1 | grep -E "ERROR SUMMARY|test result|Invalid" | head -5
timeout 40 compute-sanitizer --tool racecheck $B/test-gpu-kernels-gemm_device --include-ignored --exact sanitizer_small 2>&1 | grep -E "SUMMARY|test result" | head -3
echo "== ncu $(date -u +%T)"
M=smsp__inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
S=t128x256k32s4,t128x256k32s4-unswizzled,t128x256k32s4-padded
for b in tn nn; do timeout 40 ncu --clock-control none --kernel-name gemm --csv --log-file $OUT/ncu_$b.csv --metrics $M $B/gemm_bench ncu $b $S > $OUT/model_$b.jsonl 2>&1; done
timeout 30 ncu --clock-control none --kernel-name gemm --csv --log-file $OUT/ncu_f32.csv --metrics smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum $B/gemm_bench ncu-f32 tn t128x256k32s4,t128x256k32s4-unswizzled > $OUT/model_f32.jsonl 2>&1
python3 $D/ncu_compare.py $OUT/ncu_tn.csv $OUT/model_tn.jsonl $OUT/ncu_nn.csv $OUT/model_nn.jsonl $OUT/ncu_f32.csv $OUT/model_f32.jsonl 2>&1 | tail -12
echo "== bench $(date -u +%T)"
timeout 120 $B/gemm_bench bench --specs all --b tn,nn --iters 15 --json $OUT/bench.json 2>/dev/null | tail -3
date -u
} > $L 2>&1
tail -c 9000 $L
