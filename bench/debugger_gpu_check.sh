#!/usr/bin/env bash
# GPU check of what the debugger work (issue 11) added to code generation: named barriers
# (T.sync_threads(id, count) -> bar.sync id, count) and kernels that place their own barriers
# (pass_configs TL_DISABLE_THREAD_STORAGE_SYNC leaves insert-sync out). The seeded-bug programs of
# tests/debugger/ are run in their fixed form (the bug line corrected with sed) against their
# float64 ref_program (consume_then_copy: against the tile interpreter) for sm_90a (sm_80 cubins do
# not load on sm_90); the interpreter checks of the same programs
# are in DebuggerCheckersTest. Expected: every line "PASS". The buggy deadlock variant is not run
# on the device (it hangs by construction; the interpreter reports it in < 1 s).
# Expects .devbin/tilec. Device tool: carry [".devbin"], command: bash bench/debugger_gpu_check.sh
set -u
T=${TILEC:-.devbin/tilec}
TMP=$(mktemp -d)
export TILESCOPE_CACHE_DIR=$TMP/cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
sed 's/# BUG: missing T.sync_threads()/T.sync_threads()/' tests/debugger/race_missing_sync.py > $TMP/race_fixed.py
sed 's/T.sync_threads(1, N + 32)/T.sync_threads(1, N)/' tests/debugger/deadlock_arrive_count.py > $TMP/deadlock_fixed.py
for f in $TMP/race_fixed.py $TMP/deadlock_fixed.py tests/debugger/stale_read_pipeline.py \
         tests/debugger/consume_then_copy.py; do
  for target in cuda:sm_90a; do
    out=$(timeout 60 $T run "$f" --target $target --seed 1 2>&1)
    rc=$?
    verdict=$(echo "$out" | grep -E "PASS|FAIL" | head -1)
    echo "== $(basename $f) $target rc=$rc ${verdict:-$(echo "$out" | tail -2 | tr '\n' ' ')}"
  done
done
rm -rf "$TMP"
