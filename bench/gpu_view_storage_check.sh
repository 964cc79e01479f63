#!/usr/bin/env bash
# GPU check of the view-storage fixes (branch h97): each program that an asynchronous schedule got
# wrong when an access went through a view, run on the device against its float64 reference, for
# cuda:sm_90a (the schedules in question) and cuda:sm_80 (the same programs on cp.async). With
# .devbin/tilec-old (a tilec from before the fixes) the sm_90a runs are repeated on it: the races
# are timing-dependent, so an old PASS proves nothing, an old FAIL shows the race.
# Before (dev box): mkdir -p .devbin && strip -o .devbin/tilec build/tilec
#                   [strip -o .devbin/tilec-old /path/to/tilec-before-h97]
#   run(command="bash bench/gpu_view_storage_check.sh", carry=[".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/chk"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
P=tests/e2e/programs
cases=(
  "$P/fragment_tma_view_scratch.py"
  "$P/fragment_tma_view_scratch.py --param T_tiles=8 --param num_stages=3"
  "$P/inflight_view_access.py --param mode=1 --param T_tiles=8"
  "$P/inflight_view_access.py --param mode=2 --param T_tiles=8"
  "$P/inflight_view_access.py --param mode=0 --param T_tiles=8"
  "$P/tma_tensor_view.py --param mode=0"
  "$P/tma_tensor_view.py --param mode=1"
  "$P/epilogue_tensor_view.py --param M=512 --param N=512 --param K=512"
  "$P/pipelined_view_copy.py --param T_tiles=4 --param num_stages=3"
)
np=0; nf=0; i=0
for bin in .devbin/tilec .devbin/tilec-old; do
  [ -x "$bin" ] || continue
  for tgt in cuda:sm_90a cuda:sm_80; do
    [ "$bin" = .devbin/tilec-old ] && [ "$tgt" = cuda:sm_80 ] && continue
    for c in "${cases[@]}"; do
      i=$((i+1))
      # shellcheck disable=SC2086
      timeout 150 "$bin" run $c --target "$tgt" > "$OUT/chk/case$i.log" 2>&1; rc=$?
      if [ $rc = 0 ] && grep -q "^PASS" "$OUT/chk/case$i.log"; then np=$((np+1)); echo "PASS $bin $tgt: $c"
      else nf=$((nf+1)); echo "FAIL $bin $tgt rc=$rc: $c"; tail -4 "$OUT/chk/case$i.log"; fi
    done
  done
done
echo "view-storage GPU check: $np pass, $nf fail"
