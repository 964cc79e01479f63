#!/usr/bin/env bash
# Issue 12 on a host with 2+ GPUs (kind nvidia-h200-x2), one device call:
#  1. tune over both GPUs: `tilec tune tests/e2e/programs/tune_gemm.py` at 2048^3 (13 configs:
#     12 good, skip_k=1 wrong) with no --devices (so every visible GPU, one worker each) and
#     --baseline cublas. PASS: the JSON lists devices [0, 1]; every variant that ran names its
#     device (device_ordinal) and both devices ran variants; the wrong variant is rejected as
#     wrong_result; a checked best is reported; the cuBLAS record (kind "baseline", same session)
#     is ok, its sampled check passed, library/version/API named, shape M=N=K=2048 float16.
#  2. the same tune on --devices 0 only (the one-GPU behaviour): devices [0], the same 12 correct
#     and 1 rejected; wall times of both runs recorded (the 2-GPU one should be shorter: variants
#     run in parallel, compiles are the same).
#  3. `tilec bench samples/gemm.py --baseline cublas` at 4096^3 fp16 and bf16: kernel checked,
#     cuBLAS ok with its check passed, the ratio recorded (vs_baseline = cuBLAS ms / kernel ms).
#  4. the store written ($WORK/store/results.jsonl): tune records carry device + device_ordinal,
#     one baseline record per tune and bench.
# Expects .devbin/tilec built on the dev box (Qt-free; `scripts/build --no-gui --target tilec`,
# then `mkdir -p .devbin && cp build/tilec .devbin/`). Device tool:
#   kind nvidia-h200-x2, carry [".devbin"], command: bash bench/h200_tune_multigpu.sh
# Results: $OUT/summary.json (PASS/FAIL per check, all_pass) and $OUT/all.tgz (every log, JSON and
# the results store, which the IDE's Compare view opens: TS_COMPARE_STORE=.../results.jsonl
# TS_COMPARE_SHOT=shot.png build/tests/gui/gui_ComparePanelTest screenshot).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
WORK=${WORK:-/tmp/tune-multigpu}; rm -rf "$WORK"; mkdir -p "$WORK"
export TILESCOPE_CACHE_DIR=/tmp/tscache
export TILESCOPE_RESULTS=$WORK/store/results.jsonl
T=${TILEC:-.devbin/tilec}
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee "$WORK/gpu.txt"
# cuBLAS: the loader path or /usr/local/cuda first (what tilec tries itself), else the pip wheel.
if ! ldconfig -p | grep -q 'libcublas\.so' && [ ! -e /usr/local/cuda/lib64/libcublas.so ]; then
    lib=$(python3 -c 'import nvidia.cublas, os, glob; d = os.path.dirname(nvidia.cublas.__file__) if nvidia.cublas.__file__ else list(nvidia.cublas.__path__)[0]; print((glob.glob(d + "/lib/libcublas.so*") or [""])[0])' 2>/dev/null)
    [ -n "$lib" ] && export TILESCOPE_LIBCUBLAS=$lib
fi
echo "TILESCOPE_LIBCUBLAS=${TILESCOPE_LIBCUBLAS:-}" | tee -a "$WORK/gpu.txt"

G2="-p M=2048 -p N=2048 -p K=2048"
G4="-p M=4096 -p N=4096 -p K=4096"
run() {
    local name=$1; shift; echo "== $name: $*"
    local t0=$(date +%s.%N)
    timeout 500 "$@" > "$WORK/$name.log" 2>&1; local rc=$?
    local t1=$(date +%s.%N)
    echo "rc=$rc" >> "$WORK/$name.log"
    python3 -c "print('wall_s=%.2f' % ($t1 - $t0))" >> "$WORK/$name.log"
    tail -22 "$WORK/$name.log"
}
J=$(( $(nproc) > 16 ? 16 : $(nproc) ))
run tune-2gpu $T tune tests/e2e/programs/tune_gemm.py $G2 --no-cache -j $J --baseline cublas --json "$WORK/tune-2gpu.json"
run tune-1gpu $T tune tests/e2e/programs/tune_gemm.py $G2 --no-cache -j $J --devices 0 --json "$WORK/tune-1gpu.json"
run bench-fp16 $T bench samples/gemm.py $G4 --reps 50 --baseline cublas --json "$WORK/bench-fp16.json"
run bench-bf16 $T bench samples/gemm.py $G4 -p dtype=bfloat16 --reps 50 --baseline cublas --json "$WORK/bench-bf16.json"
$T results --csv > "$WORK/results.csv" 2>&1

python3 - "$WORK" "$OUT" <<'PY'
import json, os, re, sys
work, out = sys.argv[1], sys.argv[2]
res = {}
def load(n):
    try: return json.load(open(os.path.join(work, n)))
    except Exception as e: return {"_error": str(e)}
def log(n):
    try: return open(os.path.join(work, n + ".log")).read()
    except Exception: return ""
def wall(n):
    m = re.search(r"wall_s=([0-9.]+)", log(n)); return float(m.group(1)) if m else None
gpus = [l for l in open(os.path.join(work, "gpu.txt")).read().splitlines() if re.match(r"^\d+,", l)]
res["gpus"] = gpus
res["two_gpus"] = len(gpus) >= 2

def tune_checks(prefix, j, want_devices):
    vs = j.get("variants", [])
    ran = [v for v in vs if v.get("status") in ("ok", "wrong_result", "fault", "timeout", "crash")]
    res[prefix + "_devices"] = j.get("devices")
    res[prefix + "_variants"] = len(vs)
    res[prefix + "_ok"] = sum(v.get("status") == "ok" and v.get("check") == "pass" for v in vs)
    res[prefix + "_per_device"] = {str(d): sum(v.get("device_ordinal") == d for v in vs) for d in want_devices}
    res[prefix + "_every_ran_variant_names_its_device"] = bool(ran) and all(
        v.get("device_ordinal") in want_devices and v.get("device") for v in ran)
    res[prefix + "_wrong_rejected"] = any(v.get("status") == "wrong_result" and v.get("tune", {}).get("config", {}).get("skip_k") == "1" for v in vs)
    best = [v for v in vs if v.get("tune", {}).get("best")]
    res[prefix + "_best"] = {**best[0]["tune"]["config"], "time_ms": best[0].get("time_ms"), "device_ordinal": best[0].get("device_ordinal")} if best else None
    res[prefix + "_best_checked"] = bool(best) and best[0].get("check") == "pass"
    res[prefix + "_failures"] = {str(v["tune"]["config"]): (v.get("status"), (v.get("reason") or "")[:160]) for v in vs if v.get("status") != "ok"}
    res[prefix + "_wall_s"] = wall(prefix.replace("_", "-"))
    return (len(vs) >= 12 and res[prefix + "_ok"] >= 12 and j.get("devices") == want_devices and
            res[prefix + "_every_ran_variant_names_its_device"] and res[prefix + "_wrong_rejected"] and
            res[prefix + "_best_checked"])

t2 = load("tune-2gpu.json")
res["tune_2gpu_pass"] = tune_checks("tune_2gpu", t2, [0, 1])
res["tune_2gpu_both_devices_ran_variants"] = all(n > 0 for n in res["tune_2gpu_per_device"].values())
res["tune_2gpu_pass"] = res["tune_2gpu_pass"] and res["tune_2gpu_both_devices_ran_variants"]
b = t2.get("baseline") or {}
bl = b.get("baseline", {})
res["tune_baseline"] = {k: bl.get(k) for k in ("library", "version", "api", "gemm", "max_error", "tolerance")}
res["tune_baseline"].update({"status": b.get("status"), "check": b.get("check"), "time_ms": b.get("time_ms"),
                             "tflops": b.get("metrics", {}).get("tflops"), "reason": b.get("reason")})
best_ms = (res.get("tune_2gpu_best") or {}).get("time_ms")
if best_ms and b.get("time_ms"): res["tune_best_vs_cublas"] = b["time_ms"] / best_ms
res["tune_baseline_pass"] = (b.get("kind") == "baseline" and b.get("status") == "ok" and b.get("check") == "pass"
    and bl.get("library") == "cuBLAS" and bool(bl.get("version")) and bl.get("m") == 2048 and bl.get("n") == 2048
    and bl.get("k") == 2048 and bl.get("dtype") == "float16" and (b.get("time_ms") or 0) > 0
    and b.get("tune", {}).get("session") == t2.get("session"))
t1 = load("tune-1gpu.json")
res["tune_1gpu_pass"] = tune_checks("tune_1gpu", t1, [0])
for prec in ("fp16", "bf16"):
    j = load("bench-%s.json" % prec); bb = j.get("baseline") or {}
    res["bench_" + prec] = {"kernel_ms": j.get("median_ms"), "kernel_check": j.get("check"),
                            "cublas_ms": bb.get("time_ms"), "cublas_check": bb.get("check"),
                            "cublas_status": bb.get("status"), "cublas_version": bb.get("baseline", {}).get("version"),
                            "vs_baseline": j.get("vs_baseline"), "reason": bb.get("reason")}
    res["bench_%s_pass" % prec] = (j.get("check") == "pass" and bb.get("status") == "ok" and bb.get("check") == "pass"
                                  and (j.get("vs_baseline") or 0) > 0)
recs = []
try:
    for l in open(os.path.join(work, "store", "results.jsonl")):
        try: recs.append(json.loads(l))
        except Exception: pass
except Exception: pass
tunes = [r for r in recs if r.get("kind") == "tune" and r.get("status") == "ok"]
res["store_records"] = len(recs)
res["store_baselines"] = sum(r.get("kind") == "baseline" for r in recs)
res["store_tune_records_name_device"] = bool(tunes) and all(r.get("device") and "device_ordinal" in r for r in tunes)
res["store_pass"] = res["store_tune_records_name_device"] and res["store_baselines"] == 3
keys = ("two_gpus", "tune_2gpu_pass", "tune_baseline_pass", "tune_1gpu_pass", "bench_fp16_pass", "bench_bf16_pass", "store_pass")
res["checks"] = {k: ("PASS" if res.get(k) else "FAIL") for k in keys}
res["all_pass"] = all(res.get(k) for k in keys)
json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=2)
json.dump(res, open(os.path.join(work, "summary.json"), "w"), indent=2)
print(json.dumps(res, indent=2))
PY
tar -C "$WORK" -czf "$OUT/all.tgz" .
ls -la "$OUT"
