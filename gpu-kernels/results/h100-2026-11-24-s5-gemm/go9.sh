#!/bin/bash
# Session 5, call 9: gemm_bench bench after the review (JSON through write_json).
B=.dev-s5/bin; chmod +x $B/*
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 120 $B/gemm_bench bench --shapes 4096x4096x4096 --dtypes fp16 --specs default,t128x256k32s4-gm16 --iters 10 --json $OUT/bench9.json > $OUT/bench9.md 2>&1; echo "rc=$?"
tail -6 $OUT/bench9.md; python3 -c "import json; r=json.load(open('$OUT/bench9.json')); print(len(r), 'rows in JSON;', [ (x.get('kernel') or x.get('spec'), x.get('tflops')) for x in r])"
