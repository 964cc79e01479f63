#!/usr/bin/env bash
# First device call of the 2026-12-04 evening session (at most ~580 s), for issue 8's and 15's
# acceptance on the current main:
#  1. the corpus conformance catalogue on the GPU at the interpreter's sizes (bench/conformance/
#     h200_conformance.sh, SIZES=small): compile sm_90a, tile interpreter, GPU, each against the
#     file's reference in float64 (last full GPU run: 2026-12-03 third session, 7093212);
#  2. issue 15's export check: the nvcc projects of samples/gemm.py and samples/softmax.py for
#     sm_90a (Makefile + CMake) and sm_80, each run must PASS its own check; a corrupted reference
#     must FAIL (bench/h200_export.sh).
# Before (dev box): bash bench/conformance/prepare_device.sh     (.corpus, .devbin/tilec)
#   run(command="bash bench/h200_call_2026_12_04i.sh", carry=[".corpus", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tilec $(cat .devbin/commit)"
echo "== 1. conformance small ($(el) s)"
SIZES=small CONF_TIMEOUT=400 bash bench/conformance/h200_conformance.sh
echo "== 2. export ($(el) s)"
TILEC=.devbin/tilec timeout $(( 575 - $(el) )) bash bench/h200_export.sh; echo "export failures: $?"
echo "== done ($(el) s)"
