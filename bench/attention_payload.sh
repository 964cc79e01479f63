#!/usr/bin/env bash
# Puts what bench/h200_attention.sh needs into <main checkout>/.attn (git-ignored): the device
# tool sends the session's main checkout, so the binary, the sample and the script travel there.
# Run from a worktree after building build/tilec:
#   bash bench/attention_payload.sh [/work/main] [TILELANG_CHECKOUT]
# TILELANG_CHECKOUT (default /work/.mirror/tile-ai+tilelang/repo, a bare git dir from the
# session's fetch tool; a work tree also works): TileLang's own forward examples are copied from
# it into .attn/tl/ (not into the project) so the device run can time TileLang on its own
# kernels; without it the script times TileLang on our sample only. The autotune decorator is
# dropped from the copies so the configuration we pass is the one compiled (the examples' main()
# does the same by passing every tunable argument).
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}; tl=${2:-/work/.mirror/tile-ai+tilelang/repo}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.attn/' "$excl" || echo '/.attn/' >> "$excl"
mkdir -p "$main/.attn/tl"
strip -o "$main/.attn/tilec" "$root/build/tilec"
# xz: the tree that travels (64 MiB) must also hold .tl (TileLang, ~33 MiB)
xz -T2 -f "$main/.attn/tilec"
cp "$root/samples/flash_attn_fwd.py" "$root/samples/gemm.py" "$root/bench/h200_attention.sh" "$root/bench/attention_torch.py" "$main/.attn/"
for ex in example_mha_fwd_bshd example_gqa_fwd_bshd; do
    src=""
    if [ -f "$tl/examples/flash_attention/$ex.py" ]; then src=$(cat "$tl/examples/flash_attention/$ex.py")
    elif git -C "$tl" rev-parse --git-dir > /dev/null 2>&1; then
        src=$(git -C "$tl" show "HEAD:examples/flash_attention/$ex.py" 2> /dev/null || true)
    fi
    if [ -n "$src" ]; then
        printf '%s\n' "$src" | sed '/^@autotune(/d' > "$main/.attn/tl/$ex.py"
        echo "tilelang example $ex: $(git -C "$tl" log -1 --format='%h %cs' 2> /dev/null || echo 'work tree')" >> "$main/.attn/tl/SOURCE"
    else
        echo "no $ex.py under $tl: TileLang is timed on our sample only" >&2
    fi
done
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.attn/commit"
du -sh "$main/.attn"
