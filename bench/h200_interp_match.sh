#!/usr/bin/env bash
# GPU checks of the interp-match2 work (issue 8: corpus kernels with a reference matching on the
# H200). Runs bench/conformance/run.py --gpu on the kernels this branch touched and on every
# kernel whose GPU step timed out in conformance-h200-2026-12-02e (14 at -j16 / 60 s): the
# runner now gives the launch (NVRTC + kernel, tilec's worker --timeout) and the check after it
# (the float64 reference at real sizes, or the interpreter) separate budgets and records which
# one ran out ("phase") with each phase's seconds (launch_ms, nvrtc_ms, reference_s), so the
# JSON says whether a timeout is a GPU hang, a slow compile or a slow host reference.
# Before (dev box): bash bench/conformance/prepare_device.sh
# Three device calls (each under the 10-minute limit: every kernel of parts 1 and 2 runs at once,
# at most 60 s compile + 90 s launch + 240 s check; part 3 is small sizes):
#   run(command="bash bench/h200_interp_match.sh 1", carry=[".corpus", ".devbin"])
#   run(command="bash bench/h200_interp_match.sh 2", carry=[".corpus", ".devbin"])
#   run(command="bash bench/h200_interp_match.sh 3", carry=[".corpus", ".devbin"])
# interp-match3 (2026-12-03): part 4 -- the kernels whose T.gemm operands are column slices of
# wider shared tiles, now read in place (ts::gemm_ss LDA/LDB) instead of copied (they overflowed
# shared memory): mla_decode_ws, v32 sparse_mla_fwd_pipelined/seesaw at real sizes against the
# float64 reference, kda wy_fast_bwd (GPU vs interpreter, float32 T.gemm: tf32 tolerance 1e-3)
# and the e2e programs gemm_shared_slice(_inplace).py and role_chain_three.py:
#   run(command="bash bench/h200_interp_match.sh 4", carry=[".corpus", ".devbin"])
# Writes $OUT/conformance-h200-interp-match2-part<N>-<date>.json/.md (copy them to bench/results/).
# The interpreter stage is skipped here (--no-interp): the dev box runs it.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
part=${1:-1}
case "$part" in
1)  # real sizes: the GPU-step timeouts of 12-02e
    only='gqa_sink_bwd_varlen.py:flashattn_fwd|gqa_sink_fwd_varlen.py:flashattn_sink'
    only+='|sparse_gqa_decode_paged.py:flashattn|sparse_gqa_decode_varlen_indice.py:flashattn'
    only+='|example_convolution_autotune.py:convolution|example_mla_decode.py:flashattn'
    only+='|example_mla_decode_kv_fp8.py:flashattn|sparse_attn_fwd_sm90.py:sparse_attn_fwd'
    only+='|pool_mqa_fp8.py:pool_mqa_attn_return_logits_fp8|dsa_sparse_finetune/sparse_mla_fwd.py:sparse_mla_fwd' ;;
2)  # real sizes: the rest of the timeouts and the kernels that match on the interpreter now
    only='example_gemm_advanced_autotune.py:_build_autotuner|example_gemm_autotune_pass_configs.py:get_best_config'
    only+='|example_chunk_delta_bwd.py:tilelang_chunk_gated_delta_rule_bwd_dhu|example_mamba_chunk_scan.py:chunk_scan_fwd'
    only+='|example_hadamard.py:hadamard|sink_bwd_bhsd.py:flashattn_fwd|clean_and_maintain_logits.py|benchmark_nsa_fwd.py' ;;
4)  # in-place column-slice gemms (smem-slices) (real sizes, float64 reference), tf32 tolerance
    for p in tests/e2e/programs/gemm_shared_view.py tests/e2e/programs/gemm_shared_slice.py \
             tests/e2e/programs/role_chain_three.py; do
        echo "== $p"; timeout 120 .devbin/tilec run "$p" --target cuda:sm_90a --seed 1 2>&1 | tail -4
    done
    only='example_mla_decode_ws.py:flashattn|sparse_mla_fwd_pipelined.py|sparse_mla_fwd_seesaw.py'
    only+='|kda/wy_fast_bwd.py|example_wy_fast_bwd_split.py' ;;
*)  # small sizes, GPU vs interpreter: kernels with new valid inputs, and the 12-02e mismatches
    only='example_mhc_pre.py:mhc_pre_big_fuse|example_vertical_slash_sparse_attn.py'
    only+='|fp8_lighting_indexer.py|fusedmoe_tilelang.py:moe_forward_tilelang_routed'
    only+='|sinkhorn_bwd_implicit_cg|topk_selector.py|indexer_bwd.py|indexer_topk_reducesum.py'
    only+='|example_gqa_decode_varlen_logits.py|chunk_delta_h|wy_fast_bwd' ;;
esac
out="$OUT/conformance-h200-interp-match2-part$part-$(date -u +%F).json"
[ "$part" = 4 ] && out="$OUT/conformance-h200-interp-match3-part4-$(date -u +%F).json"
timeout 590 python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu --no-interp \
  -j 12 --timeout 60 --gpu-timeout 90 --ref-timeout 240 --label h200-interp-match2-part$part \
  --only "$only" --out "$out" 2>&1 | tail -30
# killed at the time limit: what finished is in $out.partial
[ -f "$out" ] || { [ -f "$out.partial" ] && python3 bench/conformance/run.py --resummarize "$out.partial"; }
python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    g = r.get("gpu", {})
    print(f'{r["path"][9:]}:{r["kernel"]}: interp={r.get("interp", {}).get("status")} gpu={g.get("status")} '
          f'phase={g.get("phase", "-")} launch_ms={g.get("launch_ms")} nvrtc_ms={g.get("nvrtc_ms")} '
          f'reference_s={g.get("reference_s")} wall={g.get("seconds")}')
    if g.get("status") not in ("match", None):
        print("    ", g.get("first"))
PY
