#!/bin/bash
# Session 5, call 8: the final gemm_bench burst (one timing loop for the warm-up and the bursts), bf16 nn with peers.
B=.dev-s5/bin; chmod +x $B/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 90 $B/gemm_bench burst 4096x4096x4096 default t128x256k32s4-gm16 --ms 1500 --repeat 2 --dtype bf16 --b nn > $OUT/burst8.txt 2>&1; echo "rc=$?" >> $OUT/burst8.txt
cat $OUT/burst8.txt
