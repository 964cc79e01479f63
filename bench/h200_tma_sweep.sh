#!/usr/bin/env bash
# Issue 9's TMA eligibility sweep on the H200: tests/e2e/programs/tma_sweep_copy.py (int32,
# float16, float8_e4m3) and tma_sweep_gemm.py (float16: TMA + wgmma where the row pitch allows,
# cp.async + mma.sync elsewhere; float8_e4m3: mma.sync) at every start offset 0..8 x tail 1..130
# (5850 kernels), each compiled for cuda:sm_90a and run once with fresh random inputs (--seed 0:
# drawn per variant; the gemm's are small integers, so every float32 sum is exact) into poisoned
# outputs, checked against the float64 ref_program with rel-L2 tolerance 1e-300, i.e. bit-exact.
# One `tilec tune --sweep` per (kernel, dtype): 16 NVRTC threads, one GPU worker. Which points
# take TMA is pinned GPU-free by tests/e2e/TmaEligibilitySweepTest.cpp; this script records it
# too (tma_map count of each point from `tilec compile`, for the gemm only at a few points).
# Plain (non-pipelined) copies, which take TMA on their own mbarrier: bench/h200_tma_plain.sh.
# Payload: bash bench/tma_pipeline_payload.sh [/work/main]  (.devbin/tilec, ~7 MB), then
#   run(command="bash bench/h200_tma_sweep.sh", carry=[".devbin"])   (about 2-4 min)
# Output: $OUT/tma-sweep-h200.json (summary + every failing point), $OUT/tune-*.json, logs.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-70); $(cat .devbin/commit 2>/dev/null)"
offs=$(seq -s, 0 8); tails=$(seq -s, 1 130)
sweep() {  # kernel dtype extra-args...
  local k=$1 dt=$2; shift 2
  echo "-- $k $dt (at $(el) s)"
  timeout 280 "$T" tune tests/e2e/programs/tma_sweep_$k.py --target cuda:sm_90a --param dtype=$dt \
    --sweep off=$offs --sweep tail=$tails -j 16 --reps 1 --seed 0 --rtol 1e-300 --no-cache --timeout 30 \
    "$@" --json "$OUT/tune-$k-$dt.json" > "$OUT/tune-$k-$dt.log" 2>&1
  echo "rc=$? $(tail -1 "$OUT/tune-$k-$dt.log")"
}
sweep copy int32
sweep copy float16
sweep copy float8_e4m3
sweep gemm float16 --input A=int:-4:4 --input B=int:-4:4
sweep gemm float8_e4m3 --input A=int:-4:4 --input B=int:-4:4
# Which engine the device's own tilec picks, at a few points (the full grid: the unit test).
for p in "0 64" "0 63" "1 63" "3 77" "8 130" "8 129"; do
  set -- $p
  n=$("$T" compile tests/e2e/programs/tma_sweep_gemm.py --target cuda:sm_90a --param off=$1 --param tail=$2 --emit cuda 2>/dev/null | grep -c "ts::tma_load_tile<")
  legal=false; [ $(( ($1 + $2) % 8 )) = 0 ] && legal=true   # float16 row pitch % 16 bytes
  echo "{\"off\": $1, \"tail\": $2, \"tma_load_lines\": $n, \"tma_legal\": $legal}"
done > "$OUT/gemm-engine-points.jsonl"
python3 - "$OUT" <<'PY'
import json, sys, os, glob
out = sys.argv[1]; summary = {"bench": "h200_tma_sweep", "tolerance": "rel-L2 <= 1e-300 (bit-exact)", "runs": []}
total = bad = 0
for f in sorted(glob.glob(os.path.join(out, "tune-*.json"))):
    name = os.path.basename(f)[5:-5]
    try: d = json.load(open(f))
    except Exception as e:
        summary["runs"].append({"run": name, "error": str(e)}); bad += 1; continue
    vs = d.get("variants", [])
    ok = [v for v in vs if v.get("status") == "ok" and v.get("check") == "pass"]
    fails = [dict(config=v.get("tune", {}).get("config"), status=v.get("status"), check=v.get("check"),
                  reason=v.get("reason")) for v in vs if v not in ok]
    total += len(vs); bad += len(fails)
    summary["runs"].append({"run": name, "points": len(vs), "exact": len(ok), "failures": fails[:50],
                            "failure_count": len(fails)})
pts = [json.loads(l) for l in open(os.path.join(out, "gemm-engine-points.jsonl")) if l.strip()]
summary["gemm_engine_points"] = pts
summary["points"] = total; summary["not_exact"] = bad
json.dump(summary, open(os.path.join(out, "tma-sweep-h200.json"), "w"), indent=1)
for r in summary["runs"]:
    print(f"{r['run']:24s} {r.get('exact', 0):5d} / {r.get('points', 0):5d} exact", r.get("error", ""))
print(f"TOTAL {total - bad} / {total} exact (expected 5850 points)")
PY
echo "== total $(el) s"
