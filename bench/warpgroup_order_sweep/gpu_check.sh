#!/bin/bash
# GPU check of the warpgroup-order wgmma cases (run on an sm_90a machine from the repo root:
#   bash bench/warpgroup_order_sweep/gpu_check.sh [path/to/tilec]). Each line: real GPU run vs float64 ref_program.
# Covers: several m64 tiles per warpgroup (MI 2..4), warpgroups side by side (WGN 2, 3, 4),
# 2x2 / 2x4 warpgroup grids, register-A wgmma with MI > 1, row reductions across warpgroup
# columns in and after the K loop, T.ws roles of 1 and 2 warpgroups, shifted-row reads,
# 3-D views, grid tails, and the conflict fallback (warpgroup_order_independent.py).
T=${1:-./build/tilec}
S=${WGO_DIR:-bench/warpgroup_order_sweep}
run() { f=$1; shift; case $f in */*) ;; *) f=$S/$f ;; esac; ps=(); for kv in "$@"; do ps+=(-p "$kv"); done
  out=$($T run $f --target cuda:sm_90a -q "${ps[@]}" 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q '^PASS'; then echo "PASS $f $*"; else echo "FAIL($rc) $f $*"; echo "$out" | tail -8 | sed 's/^/    /'; fi; }
run g01_gemm_epi.py block_M=128 block_N=128 threads=128
run g01_gemm_epi.py block_M=256 block_N=64 threads=128
run g01_gemm_epi.py block_M=192 block_N=64 threads=128
run g01_gemm_epi.py block_M=64 block_N=128 threads=256 policy=1
run g01_gemm_epi.py block_M=128 block_N=128 threads=256 policy=2
run g01_gemm_epi.py block_M=256 block_N=128 threads=256 policy=0
run g01_gemm_epi.py block_M=64 block_N=256 threads=512
run g01_gemm_epi.py block_M=128 block_N=256 threads=512 policy=1
run g01_gemm_epi.py block_M=256 block_N=128 threads=512 policy=0
run g01_gemm_epi.py block_M=64 block_N=192 threads=384
run g01_gemm_epi.py block_M=128 block_N=128 threads=256 policy=2 ta=1 tb=1 dtype=bfloat16
run g01_gemm_epi.py block_M=64 block_N=64 threads=256 tb=1
# narrower swizzle panels (14deea1): MN-major B read 32 / 16 columns per warpgroup column
run g01_gemm_epi.py block_M=128 block_N=64 threads=256 policy=0
run g01_gemm_epi.py block_M=64 block_N=64 threads=256 policy=1
run g01_gemm_epi.py block_M=64 block_N=64 threads=512 policy=1
run g01_gemm_epi.py block_M=256 block_N=128 threads=512 policy=2
run g02_reduce.py block_M=128 block_N=64 threads=256 policy=0 kind=1 inloop=1 N=128 M=256
run g01_gemm_epi.py block_M=64 block_N=64 threads=512 tb=1
run g01_gemm_epi.py block_M=128 block_N=128 threads=128 M=200 N=328 K=100
run g01_gemm_epi.py block_M=64 block_N=128 threads=256 M=200 N=328 K=100 out=1 tb=1
run g01_gemm_epi.py block_M=128 block_N=128 threads=256 M=200 N=328 K=64 block_K=64 out=2 ta=1
run g01_gemm_epi.py block_M=64 block_N=256 threads=512 num_stages=3
run g02_reduce.py block_M=64 block_N=128 threads=256 kind=1 inloop=1
run g02_reduce.py block_M=64 block_N=256 threads=512 kind=0 inloop=1
run g02_reduce.py block_M=128 block_N=128 threads=256 policy=2 kind=2
run g02_reduce.py block_M=256 block_N=64 threads=128 kind=1 inloop=1
run g02_reduce.py block_M=64 block_N=192 threads=384 kind=0 N=384
run samples/flash_attn_fwd.py block_M=128 block_N=64 threads=128 dim=64 is_causal=True seq_len=300
run samples/flash_attn_fwd.py block_M=64 block_N=64 threads=256 dim=128 seq_len=256
run samples/flash_attn_fwd.py block_M=256 block_N=64 threads=256 dim=64 seq_len=256
run samples/flash_attn_fwd.py block_M=192 block_N=64 threads=384 dim=64 is_causal=True seq_len=300
run g04_gemm_rs.py block_M=128 threads=128 N1=128 N2=64
run g04_gemm_rs.py block_M=256 threads=128 N1=64 N2=64 steps=3 num_stages=3 rowred=1 M=512
run g04_gemm_rs.py block_M=256 threads=256 N1=64 N2=128
run g04_gemm_rs.py block_M=192 threads=384 N1=128 N2=64 loop=0 tv=1
run g05_colred.py block_M=128 block_N=128 threads=256 policy=2 kind=1
run g06_two_gemms.py block_M=128 block_N=128 threads=256 policy=2 pol2=2
run g06_two_gemms.py block_M=64 block_N=256 threads=512 second=1 clear_first=1 dtype=bfloat16 num_stages=1
run g08_ws_gemm.py
run g08_ws_gemm.py math=2 threads=384 bm=64
run g08_ws_gemm.py math=2 threads=384 bm=256 bn=64
run g09_shift_sub.py
run g09_shift_sub.py threads=256 block_M=128 policy=2 parts=4 valid=100
run g11_odd_rows.py block_M=64 block_N=128 threads=256 M=105 N=200 K=80 block_K=32
run g11_odd_rows.py block_M=128 block_N=128 threads=128 M=257 N=257 K=24 block_K=16 num_stages=1
run g12_p_shared.py block_M=128 block_N=64 threads=256 D=64 policy=2
run g12_p_shared.py block_M=64 block_N=128 threads=256 D=128
run tests/e2e/programs/fragment_view_3d.py N=128 threads=256
run g14_row_spread.py threads=256 block_M=64 W=3
$T run tests/e2e/programs/warpgroup_order_independent.py --target cuda:sm_90a -q 2>&1 | tail -1 | sed 's/^/warpgroup_order_independent (default): /'
