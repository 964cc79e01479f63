#!/usr/bin/env bash
# End-of-session regression on the H200 (device tool): the issue-4 script (layout-width sweep,
# user-layout programs, ragged samples, gemm vs torch), the bank table, and the GPU unit tests.
# Expects stripped .devbin/tilec and .devbin/ts_unit_tests. Usage: bash bench/h200_final_check.sh
set -u
R=/tmp/final; mkdir -p $R/i4 $R/banks
OUT=$R/i4 bash bench/h200_issue4.sh > $R/i4/run.log 2>&1; echo "issue4 rc=$?"
grep -E "sweep:|FAIL|PASS samples|TFLOP|torch_tflops|ratio" $R/i4/run.log | head -20
OUT=$R/banks bash bench/h200_banks.sh > $R/banks/run.log 2>&1
sed -n '/| kernel |/,$p' $R/banks/run.log | head -20
TS_SOURCE_DIR=$PWD .devbin/ts_unit_tests --gtest_filter='*Gpu*' 2>&1 | tail -4
tar czf $OUT/final.tgz -C /tmp final
