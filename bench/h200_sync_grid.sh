#!/usr/bin/env bash
# T.sync_grid on the H200 (issue 8): cooperative launches (cuLaunchCooperativeKernel) of kernels
# with a grid barrier, checked against the interpreter (same inputs) or the float64 reference,
# and the co-residency error for a grid that cannot be resident at once. Runs, in order:
#  1. the corpus cooperative test (testing/python/language/test_tilelang_language_cooperative.py,
#     1024 elements, 16 blocks; every element ends equal to N-1) vs the interpreter, sm_90a and
#     sm_80 code;
#  2. tests/e2e/programs/grid_barrier_mirror.py (barrier between loops and inside T.Parallel) at
#     two shapes and grid_barrier_persistent.py (persistent two-phase kernel) vs the interpreter;
#  3. the corpus persistent MLA decode (grid = 132 SMs, sync_grid between split-KV attention and
#     the combine) vs ref_program in float64: block_N=32 and, since plan-smem treats the branches
#     of a block-uniform `if` as liveness scopes (3451400: 242688 -> 230400 B), the file's own
#     block_N=64; small and mid sizes, and block_N=64 at the file's real batch 128 / seqlen 8192;
#  4. a grid too large to be co-resident (1024 blocks of 1024 threads): must FAIL with
#     "the grid has 1024 blocks but at most N can be resident" (expected outcome: ERROR_OK).
# Before (dev box, in the worktree):
#   bash bench/conformance/prepare_device.sh      # .corpus/examples and .devbin/tilec
#   mkdir -p .corpus/testing/python/language && cp ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_cooperative.py .corpus/testing/python/language/
# Device tool: run(command="bash bench/h200_sync_grid.sh", carry=[".devbin", ".corpus"], timeout_s=320)
# Writes $OUT/sync_grid.tar.gz (summary.json, every run's log); the summary is printed last.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
W=$(mktemp -d /tmp/sync_grid.XXXX); mkdir -p "$W/logs"
T=${TILEC:-.devbin/tilec}
BUDGET=${BUDGET:-200}
export TILESCOPE_CACHE_DIR=/tmp/tscache
t0=$(date +%s)
[ -x "$T" ] || { echo "no $T: run bench/conformance/prepare_device.sh on the dev box first"; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$W/gpu.txt" 2>&1
n=0
# run NAME EXPECT LIMIT_S ARGS...: one `tilec run`; EXPECT is PASS, or a text the output must
# contain (then the run must fail: status ERROR_OK when it does, else FAIL).
run() {
  local name=$1 expect=$2 lim=$3; shift 3
  case "$1" in .corpus/*) [ -f "$1" ] || { echo "$name SKIPPED no-$1" >> "$W/status.txt"; return; } ;; esac
  local left=$(( BUDGET - ($(date +%s) - t0) ))
  if [ "$left" -le 5 ]; then echo "$name SKIPPED budget" >> "$W/status.txt"; return; fi
  [ "$lim" -gt "$left" ] && lim=$left
  n=$((n + 1)); local log="$W/logs/$(printf %02d $n)-$name.log" s=$(date +%s) rc st=FAIL
  timeout "$lim" "$T" run "$@" > "$log" 2>&1; rc=$?
  if [ "$expect" = PASS ]; then
    if [ $rc -eq 0 ] && grep -qx PASS "$log"; then st=PASS; elif [ $rc -eq 124 ]; then st=TIMEOUT; fi
  else
    if [ $rc -ne 0 ] && grep -qF "$expect" "$log"; then st=ERROR_OK; elif [ $rc -eq 124 ]; then st=TIMEOUT; fi
  fi
  echo "$name $st rc=$rc $(( $(date +%s) - s ))s" >> "$W/status.txt"
}
COOP=.corpus/testing/python/language/test_tilelang_language_cooperative.py
MLA=.corpus/examples/deepseek_mla/example_mla_decode_persistent.py
P=tests/e2e/programs
run corpus_coop_sm90a PASS 40 "$COOP" --target cuda:sm_90a --inout A --check interp
run corpus_coop_sm80code PASS 40 "$COOP" --target cuda:sm_80 --inout A --check interp
run mirror_default PASS 30 $P/grid_barrier_mirror.py --target cuda:sm_90a --check interp
run mirror_2per_thread PASS 30 $P/grid_barrier_mirror.py --target cuda:sm_90a --check interp --param N=4096 --param width=128 --param threads=64
run persistent_small PASS 30 $P/grid_barrier_persistent.py --target cuda:sm_90a --check interp --param rows=40 --param splits=5 --param workers=16
run mla_persistent_small PASS 40 "$MLA" --target cuda:sm_90a --param batch=1 --param heads=64 --param seqlen_kv=256 --param block_N=32
run mla_persistent_mid PASS 60 "$MLA" --target cuda:sm_90a --param batch=8 --param heads=128 --param seqlen_kv=1024 --param block_N=32
run mla_persistent_small_bn64 PASS 40 "$MLA" --target cuda:sm_90a --param batch=1 --param heads=64 --param seqlen_kv=256 --param block_N=64
run mla_persistent_mid_bn64 PASS 60 "$MLA" --target cuda:sm_90a --param batch=8 --param heads=128 --param seqlen_kv=1024 --param block_N=64
run mla_persistent_real_bn64 PASS 90 "$MLA" --target cuda:sm_90a --param batch=128 --param heads=128 --param seqlen_kv=8192 --param block_N=64
# BitNet 2-bit decode GEMV (T.call_extern("handle", "decode_i2u_to_i8s", ...) modeled, T.dp4a,
# TVM thread allreduce; not a sync_grid matter, here to share the call): GPU vs interpreter.
BIT=.corpus/examples/bitnet-1.58b/kernel_benchmark/tilelang_bitnet_158_int8xint2_decode.py
run bitnet_decode_k512 PASS 40 "$BIT" --target cuda:sm_90a --check interp --param M=1 --param N=256 --param K=512 --param in_dtype=int8 --param out_dtype=int32 --param accum_dtype=int32
run bitnet_decode_k4096 PASS 60 "$BIT" --target cuda:sm_90a --check interp --param M=4 --param N=1024 --param K=4096 --param in_dtype=int8 --param out_dtype=int32 --param accum_dtype=int32
run too_large_grid "can be resident at once" 30 $P/grid_barrier_mirror.py --target cuda:sm_90a --check interp --param N=65536 --param width=64 --param threads=1024
python3 - "$W" <<'PY'
import json, sys, pathlib
w = pathlib.Path(sys.argv[1])
rows = [l.split() for l in (w / "status.txt").read_text().splitlines()]
s = {"gpu": (w / "gpu.txt").read_text().strip(), "runs": [{"name": r[0], "status": r[1], "info": " ".join(r[2:])} for r in rows]}
s["ok"] = all(r["status"] in ("PASS", "ERROR_OK") for r in s["runs"])
(w / "summary.json").write_text(json.dumps(s, indent=1))
PY
tar -C "$W" -czf "$OUT/sync_grid.tar.gz" .
cat "$W/summary.json"
grep -q '"ok": true' "$W/summary.json"   # exit status: 0 when every run passed or failed as expected
