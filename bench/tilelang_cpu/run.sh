#!/usr/bin/env bash
# Two-way compatibility without a GPU: TileLang 0.1.15 compiles every timed configuration of every
# sample (cases.txt) for sm_90a on this machine. Layout-inference failures ("no available layout
# found", "Layout infer conflict") happen here, before any GPU is involved, so a sample that
# TileLang rejects is caught on the dev box. Running and comparing results stays on the H200
# (bench/h200_samples.sh, run_tilelang.py).
#   bash bench/tilelang_cpu/run.sh [OUT.json]
# Needs TileLang 0.1.15 from PyPI in a venv (created at $TL_VENV, default ~/.cache/tilescope-tlvenv;
# about 6 GB with torch and its CUDA wheels, which `import tilelang` pulls in).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
V=${TL_VENV:-$HOME/.cache/tilescope-tlvenv}
if [ ! -x "$V/bin/python" ] || ! "$V/bin/python" -c "import tilelang" 2>/dev/null; then
  python3 -m venv "$V" && "$V/bin/pip" install -q tilelang==0.1.15 || { echo "could not install TileLang into $V"; exit 2; }
fi
export TILELANG_CACHE_DIR=${TILELANG_CACHE_DIR:-/tmp/tilescope-tlcache}
export TILELANG_DEFAULT_TARGET=${TILELANG_DEFAULT_TARGET:-'{"kind": "cuda", "arch": "sm_90a"}'}
OUT=${1:-/tmp/tilelang-cpu.json}; LOG=${OUT%.json}.log; : > "$LOG"
rows=()
while read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  # shellcheck disable=SC2086
  r=$(timeout 900 "$V/bin/python" bench/tilelang_cpu/lower.py $line 2>>"$LOG" | tail -1)
  [ -n "$r" ] || r="{\"case\": \"$line\", \"ok\": false, \"error\": \"no result (timeout or crash; see $LOG)\"}"
  echo "$r"; rows+=("$r")
done < bench/tilelang_cpu/cases.txt
printf '%s\n' "${rows[@]}" | python3 -c "
import json, sys, datetime, subprocess
rows = [json.loads(l) for l in sys.stdin if l.strip()]
commit = subprocess.run(['git', 'log', '-1', '--format=%h %cI'], capture_output=True, text=True).stdout.strip()
json.dump({'date': datetime.date.today().isoformat(), 'machine': 'dev box, no GPU (TileLang compile only)',
           'command': 'bash bench/tilelang_cpu/run.sh', 'commit': commit, 'target': '$TILELANG_DEFAULT_TARGET',
           'ok': sum(r['ok'] for r in rows), 'cases': len(rows), 'rows': rows}, open('$OUT', 'w'), indent=1)
print(f\"TileLang compiled {sum(r['ok'] for r in rows)}/{len(rows)} sample configurations -> $OUT\")"
