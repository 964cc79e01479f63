#!/usr/bin/env bash
# Issue #4 acceptance on the H200: predicted (tilec banks, compiler/analysis/Banks.h) vs measured
# (CUPTI range profiler, profiler/cupti/RangeProfiler.h) shared-memory bank conflicts and
# wavefronts for >= 8 kernels: swizzled vs plain GEMM tiles (fp16/bf16), transposed copies with
# and without padding (fp32/fp16), and reductions (softmax, row sums).
# Expects .devbin/tilec built on the dev box (like bench/h200_core.sh).
# Usage (device tool): bash bench/h200_banks.sh
#   -> $OUT/metrics-shared.txt   CUPTI metric names on this chip containing "shared" (name check)
#      $OUT/banks-<name>.json    one per kernel: predicted + measured (tilec banks --json)
#      $OUT/banks-<name>.txt     the per-access table and the predicted-vs-measured lines
#      $OUT/banks-table.md       the comparison table (paste into bench/README / the issue)
#      $OUT/banks-summary.json   the same as JSON
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
"$T" banks samples/gemm.py --list-metrics --metric-filter shared > "$OUT/metrics-shared.txt" 2>&1
"$T" banks samples/gemm.py --list-metrics --metric-filter ldsm >> "$OUT/metrics-shared.txt" 2>&1
fails=0
one() {  # name file params...
  local name=$1 file=$2; shift 2
  echo "== $name: $file $*"
  "$T" banks "$file" "$@" --measure --json "$OUT/banks-$name.json" > "$OUT/banks-$name.txt" 2>&1 || { echo "!! $name failed"; fails=$((fails+1)); }
  tail -8 "$OUT/banks-$name.txt"
}
G="--param M=1024"
one gemm-swz-f16        samples/gemm.py $G --param N=1024 --param K=1024
one gemm-swz-bf16-bk64  samples/gemm.py $G --param N=1024 --param K=1024 --param dtype=bfloat16 --param block_K=64
one gemm-plain-f16      samples/gemm.py $G --param N=960 --param K=960 --param block_K=48 --param block_N=80
one gemm-plain-bf16     samples/gemm.py $G --param N=960 --param K=960 --param block_K=48 --param block_N=80 --param dtype=bfloat16
one transpose-f32       bench/banks/transpose.py --param pad=0
one transpose-f32-pad1  bench/banks/transpose.py --param pad=1
one transpose-f16       bench/banks/transpose.py --param dtype=float16
one transpose-f16-pad2  bench/banks/transpose.py --param dtype=float16 --param pad=2
one softmax-1024        samples/softmax.py --param M=1024 --param N=1024
one rowsum-4096x1024    bench/banks/rowsum.py
python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
rows = []
def close(p, m):
    return m is not None and m >= 0 and abs(p - m) <= max(0.02 * max(abs(p), abs(m)), 64)
for f in sorted(glob.glob(os.path.join(out, "banks-*.json"))):
    if f.endswith("banks-summary.json"): continue
    j = json.load(open(f)); p = j["predicted"]; m = j.get("measured", {}).get("metrics", {})
    g = lambda k: m.get(k)
    r = {"kernel": os.path.basename(f)[6:-5],
         "pred_ld_conflicts": p["ld_conflicts"], "pred_lds_conflicts": p["lds_conflicts"], "pred_ldsm_conflicts": p["ldsm_conflicts"],
         "pred_st_conflicts": p["st_conflicts"],
         "meas_ld_conflicts": g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
         "meas_st_conflicts": g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
         "pred_ld_wavefronts": p["ld_wavefronts"], "pred_lds_wavefronts": p["lds_wavefronts"], "pred_ldsm_wavefronts": p["ldsm_wavefronts"],
         "meas_ld_wavefronts": g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
         "meas_ldsm_wavefronts": g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"),
         "pred_st_wavefronts": p["st_wavefronts"], "meas_st_wavefronts": g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
         "pred_cp_async_wavefronts": p["cp_async_wavefronts"], "error": j.get("measured", {}).get("error")}
    ld_ok = close(r["pred_ld_conflicts"], r["meas_ld_conflicts"]) or close(r["pred_lds_conflicts"], r["meas_ld_conflicts"])
    r["ld_agree"], r["st_agree"] = ld_ok, close(r["pred_st_conflicts"], r["meas_st_conflicts"])
    rows.append(r)
json.dump(rows, open(os.path.join(out, "banks-summary.json"), "w"), indent=2)
fmt = lambda v: "n/a" if v is None else "%.0f" % v
with open(os.path.join(out, "banks-table.md"), "w") as t:
    t.write("| kernel | ld conflicts pred (all / LDS only) | ld meas | st pred | st meas | ld wavefronts pred / meas | ldsm wavefronts pred / meas | agree ld/st |\n|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        t.write("| %s | %s / %s | %s | %s | %s | %s / %s | %s / %s | %s / %s |\n" % (r["kernel"], fmt(r["pred_ld_conflicts"]), fmt(r["pred_lds_conflicts"]),
                fmt(r["meas_ld_conflicts"]), fmt(r["pred_st_conflicts"]), fmt(r["meas_st_conflicts"]), fmt(r["pred_ld_wavefronts"]),
                fmt(r["meas_ld_wavefronts"]), fmt(r["pred_ldsm_wavefronts"]), fmt(r["meas_ldsm_wavefronts"]),
                "yes" if r["ld_agree"] else "NO", "yes" if r["st_agree"] else "NO"))
print(open(os.path.join(out, "banks-table.md")).read())
PY
echo "failures: $fails"
