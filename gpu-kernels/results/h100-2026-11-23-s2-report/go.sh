#!/bin/bash
# `swz report` in GPU mode on the merged main (lead, session 2). bash .dev-rep/go.sh, carry .dev-rep
D=.dev-rep; OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HOPPER_CUBIN_CACHE=$D/cubins
chmod +x $D/swz
echo "start $(date -u +%T)"
timeout 420 $D/swz report --sizes 4096 --iters 5 --json $OUT/report.json > $OUT/report.md 2> $OUT/report.err; echo "rc=$?"
head -60 $OUT/report.md; echo ...; grep -nE "^#|verif|FAIL|fail" $OUT/report.md | head -40; tail -5 $OUT/report.err
echo "end $(date -u +%T)"
