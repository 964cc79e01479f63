#!/usr/bin/env bash
# The block-fragment choice (compiler/analysis/Layouts.cpp chooseBlockFragment: threads holding
# data first, then vector width) changes only tiles with fewer 16-byte vectors than threads; of
# the samples that is softmax with N=1000 (4-wide -> 2-wide vectors, 128 -> 256 busy threads).
# Correctness and speed on the H200 next to torch in the same run. Expects .devbin/tilec.
# Usage (device tool): OUT=... bash bench/h200_layout_choice.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
fails=0
for a in "samples/softmax.py --param M=4096 --param N=1000" "samples/softmax.py --param M=4096 --param N=8192" \
         "samples/add.py --param M=4096 --param N=4096" "tests/e2e/programs/affine_row.py --param N=192"; do
  "$T" run $a > "$OUT/run.log" 2>&1 && echo "PASS $a" || { echo "FAIL $a"; tail -5 "$OUT/run.log"; fails=$((fails+1)); }
done
"$T" bench samples/softmax.py --param M=4096 --param N=1000 --json "$OUT/tilec-softmax-4096x1000.json" | tail -2
"$T" bench samples/softmax.py --param M=4096 --param N=8192 --json "$OUT/tilec-softmax-4096x8192.json" | tail -2
python3 bench/torch_baselines.py "$OUT/torch-baselines.json" > /dev/null
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
t = json.load(open(f"{out}/torch-baselines.json"))["results"]
for n in (1000, 8192):
    k = json.load(open(f"{out}/tilec-softmax-4096x{n}.json"))
    ref = [r for r in t if r["op"] == "softmax" and r["N"] == n][0]
    print(f"softmax 4096x{n}: tilec {k['median_ms']:.4f} ms, torch {ref['median_ms']:.4f} ms, speedup vs torch {ref['median_ms'] / k['median_ms']:.2f}x")
PY
echo "failures: $fails"
