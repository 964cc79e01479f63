#!/usr/bin/env bash
# Issue 12 acceptance on the H200, in one device call (writes everything to $OUT):
#  1. profile: `tilec profile samples/gemm.py` at 4096^3 -- CUPTI activity duration within 5% of
#     the CUDA-event timing (and of `tilec bench`'s median); the counter set is recorded.
#  2. banks: bank_conflicts_ld > 0 for the unswizzled gemm (1024x960x960, 80x48 tiles: the
#     README's exact-match case) and ~0 (< 0.1% of ld wavefronts, which must be > 0) for the
#     swizzled 1024^3 one. Both with --target cuda:sm_90: the same mma.sync + ldmatrix engine for
#     both (on sm_90a the swizzled tiles take the wgmma/TMA path, whose shared reads are not LSU
#     loads, so "0 conflicts" there would compare nothing); an sm_90 cubin runs on the H200.
#  3. tune: tests/e2e/programs/tune_gemm.py at 2048^3 -- 13 configs complete, the deliberately
#     wrong one (skip_k=1) is rejected as wrong_result, a best is reported.
#  4. faults: `tilec launch tests/worker/faults.cu` runs good, oob_write, good, trap, good, spin,
#     good in one tilec process: each fault reported (CUDA_ERROR_ILLEGAL_ADDRESS, the trap's
#     launch failure, the spin's timeout) and every following `good` runs in a fresh worker;
#     then `tilec run samples/gemm.py` passes.
#  5. correctness: every profiled kernel and the tune's best variant checked against the float64
#     ref_program ("check": "pass"); the roofline figures of the 4096^3 profile (FLOP per measured
#     DRAM byte, achieved TFLOP/s, fraction of the H200's datasheet roof) for the note.
# Expects .devbin/tilec built on the dev box (like bench/h200_banks.sh). Device tool:
#   carry [".devbin"], command: bash bench/h200_profile.sh
# Results: $OUT/summary.json (PASS/FAIL per check), the logs, the JSON of every command, and the
# results store ($OUT/store/results.jsonl + sources/) that `tilec results` and the IDE's Compare
# panel read.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
export TILESCOPE_RESULTS=$OUT/store/results.jsonl
T=${TILEC:-.devbin/tilec}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"

G4="-p M=4096 -p N=4096 -p K=4096"
run() { local name=$1; shift; echo "== $name: $*"; timeout 600 "$@" > "$OUT/$name.log" 2>&1; echo "rc=$?" >> "$OUT/$name.log"; tail -25 "$OUT/$name.log"; }

run profile-gemm-4096 $T profile samples/gemm.py $G4 --reps 50 --json "$OUT/profile-gemm-4096.json"
run bench-gemm-4096   $T bench samples/gemm.py $G4 --reps 50 --json "$OUT/bench-gemm-4096.json"
run profile-gemm-plain $T profile samples/gemm.py -p M=1024 -p N=960 -p K=960 -p block_K=48 -p block_N=80 --target cuda:sm_90 --json "$OUT/profile-gemm-plain.json"
run profile-gemm-swz   $T profile samples/gemm.py -p M=1024 -p N=1024 -p K=1024 --target cuda:sm_90 --json "$OUT/profile-gemm-swz.json"
run tune-gemm-2048     $T tune tests/e2e/programs/tune_gemm.py -p M=2048 -p N=2048 -p K=2048 --no-cache --json "$OUT/tune-gemm-2048.json"
run faults             $T launch tests/worker/faults.cu --kernel good,oob_write,good,trap,good,spin,good --grid 4 --block 256 --timeout 10
run run-after-faults   $T run samples/gemm.py
$T results --csv > "$OUT/results.csv" 2>&1

python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]
res = {}
def load(n):
    try: return json.load(open(os.path.join(out, n)))
    except Exception as e: return {"_error": str(e)}
def log(n):
    try: return open(os.path.join(out, n + ".log")).read()
    except Exception: return ""
p = load("profile-gemm-4096.json"); b = load("bench-gemm-4096.json")
act = p.get("metrics", {}).get("activity_ms"); ev = p.get("metrics", {}).get("event_ms")
bm = b.get("median_ms")
res["profile_activity_ms"], res["profile_event_ms"], res["bench_median_ms"] = act, ev, bm
res["duration_within_5pct"] = bool(act and ev and abs(act / ev - 1) <= 0.05)
res["duration_vs_bench_within_5pct"] = bool(act and bm and abs(act / bm - 1) <= 0.05)
# Correctness vs the float64 ref_program of every profiled kernel (a fast wrong kernel is no result).
for n in ("profile-gemm-4096", "profile-gemm-plain", "profile-gemm-swz"):
    res[n + "_check"] = load(n + ".json").get("check")
res["profiles_correct"] = all(res[n + "_check"] == "pass" for n in ("profile-gemm-4096", "profile-gemm-plain", "profile-gemm-swz"))
# Roofline point of the 4096^3 profile (what the Compare view's Roofline tab draws).
pm = p.get("metrics", {})
traffic = (pm.get("dram_read_bytes") or 0) + (pm.get("dram_write_bytes") or 0)
if p.get("flops") and act and traffic:
    ai = p["flops"] / traffic; tf = p["flops"] / (act * 1e-3) / 1e12
    roof = min(989.5, ai * 4800 * 1e-3)  # H200 datasheet: 989.5 TFLOP/s fp16 dense, 4.8 TB/s
    res["roofline_4096"] = {"flop_per_byte": ai, "tflops": tf, "attainable_tflops": roof, "fraction_of_roof": tf / roof}
res["counters"] = p.get("metrics", {})
res["counters_error"] = p.get("counters_error")
pl = load("profile-gemm-plain.json").get("metrics", {}); sw = load("profile-gemm-swz.json").get("metrics", {})
res["plain_ld_conflicts"], res["plain_predicted"] = pl.get("bank_conflicts_ld"), pl.get("predicted_ld_conflicts")
res["swz_ld_conflicts"], res["swz_ld_wavefronts"] = sw.get("bank_conflicts_ld"), sw.get("shared_ld_wavefronts")
res["banks_plain_gt0"] = bool(pl.get("bank_conflicts_ld", 0) > 0)
w = (sw.get("shared_ld_wavefronts") or 0) + (sw.get("ldsm_wavefronts") or 0)
res["swz_predicted"], res["swz_ldsm_wavefronts"] = sw.get("predicted_ld_conflicts"), sw.get("ldsm_wavefronts")
res["banks_swizzled_about0"] = w > 0 and sw.get("bank_conflicts_ld") is not None and sw["bank_conflicts_ld"] <= 0.001 * w
t = load("tune-gemm-2048.json"); vs = t.get("variants", [])
res["tune_variants"] = len(vs)
res["tune_wrong_rejected"] = any(v.get("status") == "wrong_result" and v.get("tune", {}).get("config", {}).get("skip_k") == "1" for v in vs)
res["tune_best"] = next((v["tune"]["config"] for v in vs if v.get("tune", {}).get("best")), None)
res["tune_ok"] = sum(v.get("status") == "ok" and v.get("check") == "pass" for v in vs)
res["tune_best_checked"] = any(v.get("tune", {}).get("best") and v.get("check") == "pass" for v in vs)
res["tune_failures"] = {str(v["tune"]["config"]): (v.get("status"), (v.get("reason") or "")[:160]) for v in vs if v.get("status") != "ok"}
res["tune_pass"] = len(vs) >= 12 and res["tune_ok"] >= 12 and res["tune_wrong_rejected"] and res["tune_best_checked"]
f = log("faults")
lines = [l for l in f.splitlines() if re.match(r"^(good|oob_write|trap|spin):", l)]
res["fault_lines"] = lines
res["fault_oob"] = any(l.startswith("oob_write: FAILED") and "CUDA_ERROR_ILLEGAL_ADDRESS" in l for l in lines)
res["fault_trap"] = any(l.startswith("trap: FAILED") and "CUDA_ERROR_" in l for l in lines)
res["fault_spin"] = any(l.startswith("spin: FAILED") and "did not answer within" in l for l in lines)
# Each `good` after a fault ran in a fresh worker and wrote out[i] = 2 i.
res["fault_goods_ok"] = sum(l.startswith("good: ok") and l.endswith("out[0..3] = 0 2 4 6") for l in lines) == 4
res["fault_worker_pids"] = sorted({int(m) for l in lines for m in re.findall(r"worker pid (\d+)", l)})
res["run_after_faults"] = "PASS" in log("run-after-faults")
res["faults_pass"] = all(res[k] for k in ("fault_oob", "fault_trap", "fault_spin", "fault_goods_ok", "run_after_faults"))
res["all_pass"] = all(res[k] for k in ("duration_within_5pct", "profiles_correct", "banks_plain_gt0", "banks_swizzled_about0", "tune_pass", "faults_pass"))
json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=2)
print(json.dumps(res, indent=2))
PY
