#!/usr/bin/env bash
# Not yet run (written 2026-12-04 late night without a device). The exported nvcc project of the
# staged samples/gemm.py (128x256x64 / 4 stages / 256 threads, sm_90a) under nvcc's ptxas had its
# whole main loop's wgmma serialized (C7514; SASS: WARPGROUP.DEPBAR.LE gsb0, 0x0 after every HGMMA)
# until the vector stores became one integer store (ts_vec_store, 9dae029); NVRTC's build, which
# tilec and the IDE run, never was. This times, in one call: the exported project built by nvcc
# from the old tilec (.devbin-old, before the fix) and from this one (.devbin), each binary's own
# check against the float64 reference first, and `tilec bench` (NVRTC) of the same configuration
# with the new binary -- ratios old-export / new-export and NVRTC / new-export. On the dev box
# (2026-12-04) the 2048^3 export's nvcc build: old binary "(C7514) ... serialized", 191 registers;
# new binary no remark, 191 registers.
# Dev box: bash bench/conformance/prepare_device.sh  (.devbin/tilec); .devbin-old/tilec = a build
# before 9dae029 (e.g. af8c03a). Device: run(command="bash bench/h200_export_gemm_speed.sh",
# carry=[".devbin", ".devbin-old"]).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/export"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
P="--param M=2048 --param N=2048 --param K=2048 --param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
for b in old new; do
  tc=.devbin/tilec; [ $b = old ] && tc=.devbin-old/tilec
  d=/tmp/export-$b
  rm -rf "$d"
  $tc export samples/gemm.py --target cuda:sm_90a $P --out "$d" --name gemm -q > "$OUT/export/export-$b.log" 2>&1 || { echo "export $b failed"; continue; }
  # -Xptxas -v through NVCC, not NVCCFLAGS: exports made before 2026-12-04 lack that hook.
  make -C "$d" NVCC="$NVCC -Xptxas -v" > "$OUT/export/make-$b.log" 2>&1 || { echo "make $b failed"; tail -5 "$OUT/export/make-$b.log"; continue; }
  grep -c C7514 "$OUT/export/make-$b.log" | sed "s/^/$b: C7514 lines in the nvcc build: /"
  (cd "$d" && ./gemm 200) | tee "$OUT/export/run-$b.log" | grep -E "PASS|FAIL|ms per launch"
done
.devbin/tilec bench samples/gemm.py --target cuda:sm_90a $P --no-check --reps 200 --json "$OUT/export/nvrtc-new.json" > /dev/null 2>&1
python3 - "$OUT/export" <<'PY'
import json, re, sys, os
d = sys.argv[1]
def ms(b):
    try:
        return float(re.search(r"([0-9.]+) ms per launch", open(os.path.join(d, f"run-{b}.log")).read()).group(1))
    except Exception:
        return None
old, new = ms("old"), ms("new")
try:
    nvrtc = json.load(open(os.path.join(d, "nvrtc-new.json")))["median_ms"]
except Exception:
    nvrtc = None
r = {"date": os.popen("date -u +%F").read().strip(), "config": "samples/gemm.py 2048^3 fp16 128x256x64/4/256 sm_90a",
     "export_old_ms": old, "export_new_ms": new, "nvrtc_new_median_ms": nvrtc,
     "old_over_new": old / new if old and new else None, "nvrtc_over_export_new": nvrtc / new if nvrtc and new else None}
json.dump(r, open(os.path.join(d, "export-gemm-speed.json"), "w"), indent=1)
print(r)
PY
cd "$OUT" && tar czf all.tgz export && ls -la all.tgz
