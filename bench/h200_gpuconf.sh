#!/usr/bin/env bash
# The GPU findings of the 2026-12-02 H200 conformance run (bench/results/conformance-h200-
# 2026-12-02b.json, tilec at 5a72b41), rerun in one device call of at most ~5 minutes:
#  1. conformance: bench/conformance/run.py --gpu on exactly the kernels of those findings --
#     deepseek_mla/example_mla_decode.py flashattn at its real sizes (its 1.1 GiB KV cache went
#     over the worker's 1 GiB frame limit: "exited with status 4"), the two faults (now with valid
#     cu_seqlens / offsets / token indices from review.json) and the GPU-vs-interpreter
#     mismatches, each with every output's rel-L2 line ("checks" in the JSON).
#  2. real-size fault checks: the two faulting kernels (example_gqa_bwd_tma_reduce_varlen.py
#     flashattn_fwd and the varlen backward kernels, sparse_mla_topk_reducesum.py) at the file's
#     real sizes with valid integer inputs, run once on the GPU without a check (`tilec bench
#     --no-check`: the interpreter would take hours at these sizes); each must not fault.
#  3. flashattn_bwd_dsink probes: the elementwise kernel that mismatched, with pinned inputs
#     (sinks 0, lse 0, delta 1: every output is exactly -1; then one input random at a time), so
#     the failing term shows.
#  4. compute-sanitizer memcheck + racecheck on the mismatching kernels at the small sizes (when
#     time is left: each 60 s at most, skipped after 240 s of the call).
# Before (dev box): strip -o .devbin/tilec build/tilec; bash bench/conformance/prepare_device.sh
# (makes .corpus). Device tool: carry [".devbin", ".corpus"], command: bash bench/h200_gpuconf.sh
# Writes $OUT/summary.md + summary.json (one line per kernel/probe), $OUT/conformance-gpuconf.json
# (run.py's record) and $OUT/logs/*.log.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/logs"
export TILESCOPE_CACHE_DIR=/tmp/tscache
export TILESCOPE_WORKER_TIMEOUT=200
T=${TILEC:-.devbin/tilec}
C=${CORPUS:-.corpus}
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
git log -1 --format='%h %cI %s' > "$OUT/commit.txt" 2>/dev/null

# ---- 1. conformance on the finding kernels ---------------------------------------------------
ONLY='deepseek_mla/example_mla_decode\.py:|sparse_mla_topk_reducesum|example_gqa_bwd_tma_reduce|example_mha_sink_bwd_bhsd|example_mha_bwd_bshd|gdn/example_chunk_delta_h\.py|kda/chunk_delta_bwd\.py|kda/chunk_delta_h_fwd\.py'
python3 bench/conformance/run.py --tilec "$T" --corpus "$C" --gpu --no-interp -j 8 \
  --timeout 120 --gpu-timeout 240 --only "$ONLY" --label gpuconf \
  --out "$OUT/conformance-gpuconf.json" > "$OUT/logs/conformance.log" 2>&1 &
conf_pid=$!

# ---- 2. real sizes, valid integer inputs, no check: must not fault ---------------------------
# The commands come from the catalogue (run.py's own param/input expansion at the real sizes).
python3 - "$T" "$C" > "$OUT/realsize.cmds" <<'PY'
import json, os, shlex, sys
sys.path.insert(0, "bench/conformance")
import run
tilec, corpus = sys.argv[1], sys.argv[2]
class TC: has_input_rules = True
cat = json.load(open("bench/conformance/catalogue.json"))
want = {("examples/flash_attention/example_gqa_bwd_tma_reduce_varlen.py", k)
        for k in ("flashattn_fwd", "flashattn_bwd_atomic_add", "flashattn_bwd_split")}
want.add(("examples/dsa_sparse_finetune/sparse_mla_topk_reducesum.py", "tl_sparse_mla_topk_reducesum_impl"))
for f in cat["files"]:
    for k in f.get("kernels", []):
        if (f["path"], k["name"]) in want:
            cmd = [tilec, "bench", os.path.join(corpus, f["path"]), "--target", "cuda:sm_90a",
                   "--kernel", k["name"], "--no-check", "--reps", "1", "--warmup", "0"] + \
                  run.param_args(k, "real") + run.check_args(TC, k, "real")
            print(k["name"] + "\t" + " ".join(shlex.quote(c) for c in cmd))
PY
while IFS=$'\t' read -r name cmd; do
  log="$OUT/logs/real-$name.log"
  echo "== real $name" | tee -a "$OUT/logs/realsize.log"
  ( eval "timeout 200 $cmd" ) > "$log" 2>&1; echo "rc=$?" >> "$log"
  grep -E "error|CUDA_ERROR|median|rc=" "$log" | head -5 | tee -a "$OUT/logs/realsize.log"
done < "$OUT/realsize.cmds"

# ---- 3. flashattn_bwd_dsink with pinned inputs ---------------------------------------------------
DS="$C/examples/attention_sink/example_mha_sink_bwd_bhsd.py --kernel flashattn_bwd_dsink --seed 1 --check interp --param batch=1 --param heads=2 --param seq_len=256 --param dtype=float16"
probe() { local name=$1; shift; local log="$OUT/logs/probe-$name.log"
  timeout 120 $T run $DS "$@" > "$log" 2>&1; echo "rc=$?" >> "$log"
  echo "== probe $name: $*"; grep -E "rel-L2|PASS|FAIL|error" "$log" | head -4; }
probe all-pinned  --input Sinks=fill:0 --input lse=fill:0 --input Delta=fill:1
probe sinks-random --input lse=fill:0 --input Delta=fill:1
probe lse-random  --input Sinks=fill:0 --input Delta=fill:1
probe delta-random --input Sinks=fill:0 --input lse=fill:0
probe all-random
probe seed2 --seed 2

wait $conf_pid
echo "== conformance done at $(elapsed) s"; tail -12 "$OUT/logs/conformance.log"

# ---- 4. compute-sanitizer on the mismatching kernels (small sizes) ---------------------------
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
python3 - "$OUT/conformance-gpuconf.json" > "$OUT/mismatch.cmds" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    g = r.get("gpu", {})
    if g.get("status") == "mismatch":
        print(r["kernel"] + "@" + r["path"].split("/")[-1].replace(".py", "") + "\t" + g["cmd"])
PY
if [ -n "$CS" ]; then
  while IFS=$'\t' read -r name cmd; do
    for tool in memcheck racecheck; do
      if [ "$(elapsed)" -gt 240 ]; then echo "skip $tool $name (time)"; continue; fi
      log="$OUT/logs/sanitizer-$tool-$name.log"
      ( eval "timeout 60 $CS --tool $tool --target-processes all $T $cmd" ) > "$log" 2>&1
      echo "rc=$?" >> "$log"
      echo "== $tool $name: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
    done
  done < "$OUT/mismatch.cmds"
else
  echo "compute-sanitizer not found: step 4 skipped"
fi

# ---- summary ---------------------------------------------------------------------------------
python3 - "$OUT" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
rows = []
try:
    d = json.load(open(os.path.join(out, "conformance-gpuconf.json")))
    for r in d["results"]:
        g = r.get("gpu", {})
        rows.append({"what": "conformance", "kernel": r["path"].replace("examples/", "") + ":" + r["kernel"],
                     "compile": r["compile"]["status"], "gpu": g.get("status"), "sizes": g.get("sizes"),
                     "seconds": g.get("seconds"), "first": g.get("first"), "checks": g.get("checks")})
except Exception as e:
    rows.append({"what": "conformance", "error": str(e)})
for log in sorted(glob.glob(os.path.join(out, "logs", "real-*.log")) + glob.glob(os.path.join(out, "logs", "probe-*.log"))
               + glob.glob(os.path.join(out, "logs", "sanitizer-*.log"))):
    text = open(log, errors="replace").read()
    name = os.path.basename(log)[:-4]
    rc = re.findall(r"^rc=(\S+)", text, re.M)
    lines = [l.strip() for l in text.splitlines()
             if re.search(r"rel-L2|CUDA_ERROR|error:|ERROR SUMMARY|RACECHECK SUMMARY|median|^PASS$|^FAIL$", l)]
    rows.append({"what": name.split("-")[0], "kernel": name, "rc": rc[-1] if rc else None, "lines": lines[:8]})
json.dump(rows, open(os.path.join(out, "summary.json"), "w"), indent=1)
with open(os.path.join(out, "summary.md"), "w") as f:
    for r in rows:
        f.write("- " + json.dumps(r) + "\n")
print(open(os.path.join(out, "summary.md")).read()[-6000:])
PY
echo "total $(elapsed) s"
