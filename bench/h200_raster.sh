#!/usr/bin/env bash
# Block rasterization on the H200 (issue 9: T.use_swizzle / rasterize-blocks), one device call:
#  1. correctness of samples/gemm.py --target cuda:sm_90a with the automatic panels against the
#     float64 ref_program (fresh random inputs, NaN-poisoned outputs): fp16/bf16 at 1000^3 and
#     4000^3 (ragged grids: the remap's last, narrower panel), and an explicit T.use_swizzle(4, "col");
#  2. speed in the same call: tilec bench (median of 50, inputs rotated past L2) at 4096^3 and
#     8192^3, fp16 and bf16, tiles B (128x256x64/3/256) and D (128x256x64/4/256), with the panel
#     set by TILESCOPE_RASTER_PANEL (0 = launch order, the code before rasterize-blocks);
#     TileLang 0.1.15 compiling the same file at B and D; torch.matmul (cuBLAS).
#     Writes $OUT/raster.json with, per shape, vs_tilelang (TileLang's best median / ours) and
#     vs_cublas at our best panel and at panel 0.
# RASTER_PANELS_8192 / RASTER_PANELS_4096 (default "0 8 16" / "0 8 4"; "auto" = the compiler's
# choice) pick the panels; tilec bench at 8192^3 takes ~25 s per run (inputs through the worker),
# so the first call (all panels) left no time for TileLang: the second call times "auto" only.
# Payload (the device tool sends /work/main's tree): from a worktree with build/tilec,
#   bash bench/raster_payload.sh  -> /work/main/.raster;  run(command="bash .raster/h200_raster.sh", carry=[".raster", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
R=.raster; T=$R/tilec; G=$R/gemm.py
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload: $(cat $R/commit 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
source .tl/setup.sh >/dev/null 2>&1
LOG=$OUT/raster-log.txt; : > "$LOG"
sz() { echo "--param M=$1 --param N=$1 --param K=$1"; }
cfgB="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256"
cfgD="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
$T compile $G --target cuda:sm_90a $(sz 8192) $cfgD --emit cuda > "$OUT/gemm_8192_D.cu" 2>&1
grep -n "rasterize_blocks" "$OUT/gemm_8192_D.cu" | head -2

echo "== 1. correctness (float64 reference)"
pass=0; fail=0
check() {
  local l=$1; shift
  echo "--- $l: $*" >> "$LOG"
  if timeout 120 $T run "$@" --target cuda:sm_90a >> "$LOG" 2>&1; then pass=$((pass+1)); echo "PASS $l"; else fail=$((fail+1)); echo "FAIL $l"; tail -3 "$LOG"; fi
}
for dt in float16 bfloat16; do
  check "$dt 1000^3 B" $G $(sz 1000) --param dtype=$dt $cfgB
  check "$dt 4000^3 D" $G $(sz 4000) --param dtype=$dt $cfgD
done
check "defaults 1000^3 (128x128x32)" $G $(sz 1000)
check "explicit T.use_swizzle(4, col) 1000x1000x1000" $R/gemm_swizzle_col.py $(sz 1000) $cfgB
echo "correctness: $pass pass, $fail fail ($(el) s)"

echo "== 2. speed"
# Panels to time per size ("auto": the compiler's own choice, no TILESCOPE_RASTER_PANEL).
P8192=${RASTER_PANELS_8192:-0 8 16}; P4096=${RASTER_PANELS_4096:-0 8 4}
for n in 8192 4096; do
  panels=$P8192; [ $n = 4096 ] && panels=$P4096
  for dt in float16 bfloat16; do for c in B D; do
    eval cfg=\$cfg$c
    for p in $panels; do
      if [ "$p" = auto ]; then unset TILESCOPE_RASTER_PANEL; else export TILESCOPE_RASTER_PANEL=$p; fi
      timeout 100 $T bench $G --target cuda:sm_90a $(sz $n) --param dtype=$dt $cfg --no-check \
        --json "$OUT/ts-$n-$dt-$c-p$p.json" >> "$LOG" 2>&1 || echo "tilec bench $n $dt $c p$p failed"
    done
    unset TILESCOPE_RASTER_PANEL
  done; done
  echo "tilescope $n done ($(el) s)"
done
for n in 8192 4096; do for dt in float16 bfloat16; do for c in B D; do
  [ $(el) -gt ${RASTER_TL_GUARD_S:-470} ] && { echo "time guard: TileLang $n $dt $c skipped"; continue; }
  eval cfg=\$cfg$c
  timeout 100 python3 .tl/run_tilelang.py $G $(sz $n) --param dtype=$dt $cfg --json "$OUT/tl-$n-$dt-$c.json" >> "$LOG" 2>&1 || echo "tilelang $n $dt $c failed"
done; done; echo "tilelang $n done ($(el) s)"; done
python3 - "$OUT" "$pass" "$fail" <<'PY'
import json, sys, glob, os, torch
out, npass, nfail = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def rd(p):
    try: return json.load(open(p)).get("median_ms")
    except Exception: return None
res = {"date": "2026-12-02", "device": torch.cuda.get_device_name(), "command": "bash .raster/h200_raster.sh (bench/h200_raster.sh)",
       "commit": open(".raster/commit").read().strip(), "target": "cuda:sm_90a",
       "correctness": {"pass": npass, "fail": nfail}, "cases": {},
       "method": "tilescope: tilec bench median of 50 after warm-up, inputs rotated past L2; tilelang: .tl/run_tilelang.py (TileLang's profiler, median); cublas: torch.matmul CUDA events median of 50 after 10 warm-up. vs_tilelang = TileLang best / ours; vs_cublas = cuBLAS / ours"}
for n in (4096, 8192):
    for dt, tdt in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
        a = torch.randn(n, n, device="cuda", dtype=tdt); b = torch.randn(n, n, device="cuda", dtype=tdt)
        for _ in range(10): a @ b
        ts_ = []
        for _ in range(50):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts_.append(s.elapsed_time(e))
        cub = sorted(ts_)[len(ts_) // 2]
        ours = {os.path.basename(p)[len(f"ts-{n}-{dt}-"):-5]: rd(p) for p in sorted(glob.glob(f"{out}/ts-{n}-{dt}-*.json"))}
        tl = {c: rd(f"{out}/tl-{n}-{dt}-{c}.json") for c in "BD"}
        ok = {k: v for k, v in ours.items() if v}
        best = min(ok.items(), key=lambda kv: kv[1]) if ok else (None, None)
        p0 = min((v for k, v in ok.items() if k.endswith("-p0")), default=None)
        tlbest = min((v for v in tl.values() if v), default=None)
        fl = 2 * n ** 3 / 1e9
        r = {"tilescope_ms": ours, "tilelang_ms": tl, "cublas_ms": cub, "tilescope_best": best[0],
             "tilescope_best_tflops": fl / best[1] if best[1] else None, "tilelang_best_tflops": fl / tlbest if tlbest else None,
             "cublas_tflops": fl / cub, "vs_tilelang": tlbest / best[1] if best[1] and tlbest else None,
             "vs_cublas": cub / best[1] if best[1] else None,
             "panel0_vs_tilelang": tlbest / p0 if p0 and tlbest else None, "panel0_vs_cublas": cub / p0 if p0 else None}
        res["cases"][f"{dt} {n}^3"] = r
        print(f"{dt} {n}^3: " + json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}))
res["configs"] = {"B": "128x256x64, 3 stages, 256 threads", "D": "128x256x64, 4 stages, 256 threads", "pN": "TILESCOPE_RASTER_PANEL=N (0: launch order)"}
json.dump(res, open(f"{out}/raster.json", "w"), indent=1)
PY
cd "$OUT" && tar czf all.tgz --exclude=all.tgz . && ls "$OUT" | wc -l
