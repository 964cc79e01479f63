#!/usr/bin/env bash
# Issue 9 item 3 acceptance on the H200, in one device call: `tilec trace` on the Hopper GEMM
# (samples/gemm.py --target cuda:sm_90a; sm_90 only: sm_80 cubins cannot load on the H200).
#  1. trace: 4096^3 (128 iterations, 4 stages) and 128x128x160 (5 iterations, 3 stages) and a
#     one-iteration loop (K=32, 2 stages), blocks 0,1 -- the Chrome trace JSON is written and
#     parses, has measured events of both blocks and the static plan; thread 0's measured order
#     (issue / wait stage / wgmma per iteration) matches the static plan (tilec exits 0, the
#     JSON's otherData.order_check.match).
#  2. overhead: 4096^3, plain vs instrumented kernel, median of 200 launches each in the same
#     worker (tilec trace --reps 200): target <= 5% (instrumented / plain <= 1.05).
#  3. correctness: the plain kernel is still correct (tilec run vs the float64 ref_program).
# Expects .devbin/tilec (dev box: strip -o .devbin/tilec build/tilec). Device tool:
#   carry [".devbin"], command: bash bench/h200_trace.sh
# Results: $OUT/summary.json (PASS/FAIL per check), the logs, the trace JSONs; everything tarred
# into $OUT/all.tgz (the files that come back are limited).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
H="--target cuda:sm_90a"
run() { local name=$1; shift; echo "== $name: $*"; timeout 300 "$@" > "$OUT/$name.log" 2>&1; echo "rc=$?" >> "$OUT/$name.log"; tail -8 "$OUT/$name.log"; }

run trace-4096   $T trace samples/gemm.py $H -p M=4096 -p N=4096 -p K=4096 --blocks 0,1 --reps 200 --out "$OUT/trace-4096.json"
run trace-5trips $T trace samples/gemm.py $H -p M=256 -p N=256 -p K=160 -p num_stages=3 --blocks 0,1 --out "$OUT/trace-5trips.json"
run trace-1trip  $T trace samples/gemm.py $H -p M=256 -p N=256 -p K=32 -p num_stages=2 --blocks 0,1 --out "$OUT/trace-1trip.json"
run run-4096     $T run samples/gemm.py $H -p M=4096 -p N=4096 -p K=4096
$T timeline samples/gemm.py $H -p M=256 -p N=256 -p K=160 -p num_stages=3 > "$OUT/timeline-5trips.txt" 2>&1

python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]
res = {}
def log(n):
    try: return open(os.path.join(out, n + ".log")).read()
    except Exception: return ""
def rc(n):
    m = re.search(r"rc=(\d+)\s*$", log(n)); return int(m.group(1)) if m else None
for n in ("trace-4096", "trace-5trips", "trace-1trip"):
    r = {"rc": rc(n)}
    try:
        j = json.load(open(os.path.join(out, n + ".json")))
        ev = j["traceEvents"]; od = j.get("otherData", {})
        r["events"] = len(ev)
        r["measured_blocks"] = sorted({e["pid"] for e in ev if e.get("cat") == "measured"})
        r["plan_events"] = sum(1 for e in ev if e.get("cat") == "plan")
        r["schema_ok"] = all(isinstance(e.get("name"), str) and e.get("ph") in ("X", "i", "M") and "pid" in e and "tid" in e
                             and (e["ph"] == "M" or isinstance(e.get("ts"), (int, float))) for e in ev)
        oc = od.get("order_check", {})
        r["order_match"] = bool(oc.get("match")); r["order_detail"] = oc.get("detail"); r["compared"] = oc.get("compared")
        if "overhead" in od: r["overhead"] = od["overhead"]
        waits = [e["dur"] for e in ev if e.get("cat") == "measured" and e.get("ph") == "X" and e["name"].startswith("wait") and e["pid"] == 1 and e["tid"] == 0]
        mmas = [e["dur"] for e in ev if e.get("cat") == "measured" and e.get("ph") == "X" and e["name"].startswith("wgmma") and e["pid"] == 1 and e["tid"] == 0]
        r["warp0_wait_us_total"] = sum(waits); r["warp0_wgmma_us_total"] = sum(mmas)
        loop = [e["dur"] for e in ev if e.get("name") == "pipelined loop" and e["pid"] == 1 and e["tid"] == 0]
        r["warp0_loop_us"] = loop[0] if loop else None
        r["pass"] = r["rc"] == 0 and r["schema_ok"] and r["order_match"] and r["measured_blocks"] == [1, 2] and r["plan_events"] > 0
    except Exception as e:
        r["error"] = str(e); r["pass"] = False
    res[n] = r
ov = res.get("trace-4096", {}).get("overhead") or {}
res["overhead_ratio"] = ov.get("ratio")
res["overhead_pass"] = bool(ov.get("ratio") and ov["ratio"] <= 1.05)
res["run_4096_pass"] = rc("run-4096") == 0 and "PASS" in log("run-4096")
res["all_pass"] = all(res[n]["pass"] for n in ("trace-4096", "trace-5trips", "trace-1trip")) and res["overhead_pass"] and res["run_4096_pass"]
res["verdict"] = "PASS" if res["all_pass"] else "FAIL"
json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=2)
print(json.dumps(res, indent=2))
PY
tar czf /tmp/all.tgz -C "$OUT" . && mv /tmp/all.tgz "$OUT/all.tgz"
ls -la "$OUT"
