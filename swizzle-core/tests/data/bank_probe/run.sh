#!/usr/bin/env bash
# Re-measure the probe cases on a GPU with nvcc + Nsight Compute (run from this directory):
#   python3 gen.py   (writes cases.json / cases.txt; gen2.py writes the lane-pair follow-up cases2.*)
#   ./run.sh cases.txt > ncu.csv
# Each line of the case file is "OP_ID a0 ... a31"; every line launches one 1-warp kernel that issues exactly one
# shared-memory instruction. Wavefronts = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum + ..._op_st.sum
# of that launch (the all-ops total carries one extra wavefront of launch overhead; do not use it).
set -euo pipefail
[ -x probe ] || nvcc -O2 -arch=sm_90 -o probe probe.cu
ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
    --csv ./probe "${1:-cases.txt}"
