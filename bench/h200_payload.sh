#!/usr/bin/env bash
# One payload for the issue-10 device calls (attention, MHA backward, SwiGLU) with ONE tilec
# (stripped, xz): the device tool's tree + carries must stay under ~65.5 MB and .tl (TileLang) is
# 32.9 MB, so three payloads with a tilec each no longer fit beside it. The per-workload scripts
# take their folder from ATTN_DIR / MHAB_DIR / SW_DIR.
#   bash bench/h200_payload.sh [/work/main] [TILELANG_CHECKOUT]
#   run(command="bash .h200/h200_call_2026_12_06f.sh 1", carry=[".h200", ".tl"])
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}; tl=${2:-/work/.mirror/tile-ai+tilelang/repo}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.h200/' "$excl" || echo '/.h200/' >> "$excl"
P=$main/.h200; rm -rf "$P"; mkdir -p "$P/tl"
strip -o "$P/tilec" "$root/build/tilec" && xz -9 -T2 "$P/tilec"
cp "$root"/samples/{flash_attn_fwd,flash_decode,gemm,mha_bwd,swiglu}.py "$P/"
cp "$root"/bench/{h200_attention.sh,attention_torch.py,h200_mha_bwd_perf.sh,mha_bwd_torch.py,torch_timing.py,h200_swiglu.sh} "$P/"
cp "$root"/bench/h200_call_2026_12_06j.sh "$root"/bench/h200_call_2026_12_06k.sh "$root"/bench/h200_call_2026_12_06l.sh "$root"/bench/h200_call_2026_12_06m.sh "$root"/bench/attn_switch_ab_lib.sh "$P/"
# TileLang's reshape/view tests (read-only corpus input, not committed), for the GPU check of views.
mkdir -p "$P/corpus" && cp "$root"/../shared/tilelang-corpus/testing/python/language/test_tilelang_language_{reshape,view}.py "$P/corpus/"
for ex in flash_attention/example_mha_fwd_bshd flash_attention/example_gqa_fwd_bshd flash_attention/example_mha_bwd_bshd; do
    # The autotune decorator is dropped so the configuration passed is the one compiled.
    git -C "$tl" show "HEAD:examples/$ex.py" 2> /dev/null | sed '/^@autotune(/d' > "$P/tl/$(basename $ex).py" \
        || echo "no $ex under $tl: TileLang not timed on it" >&2
done
echo "tilelang examples: $(git -C "$tl" log -1 --format='%h %cs' 2> /dev/null)" > "$P/tl/SOURCE"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain --untracked-files=no | wc -l) uncommitted" > "$P/commit"
du -sb "$P"
