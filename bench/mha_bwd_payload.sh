#!/usr/bin/env bash
# Puts what bench/h200_mha_bwd_perf.sh needs into <main checkout>/.mhab (git-ignored): the device
# tool sends the session's main checkout, so the binary, the sample and the scripts travel there.
# Run from a worktree after building build/tilec:
#   bash bench/mha_bwd_payload.sh [/work/main] [TILELANG_CHECKOUT]
# TILELANG_CHECKOUT (default /work/.mirror/tile-ai+tilelang/repo, a bare git dir from the fetch
# tool): TileLang's own MHA backward example is copied from it into .mhab/tl/ (not into the
# project) so that the device run times TileLang on its own kernel.
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}; tl=${2:-/work/.mirror/tile-ai+tilelang/repo}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.mhab/' "$excl" || echo '/.mhab/' >> "$excl"
rm -rf "$main/.mhab"; mkdir -p "$main/.mhab/tl"
strip -o "$main/.mhab/tilec" "$root/build/tilec"
# xz: the tree that travels (64 MiB) must also hold .tl (TileLang, ~33 MiB)
xz -T2 -f "$main/.mhab/tilec"
cp "$root/samples/mha_bwd.py" "$root/bench/h200_mha_bwd_perf.sh" "$root/bench/mha_bwd_torch.py" "$root/bench/torch_timing.py" "$main/.mhab/"
ex=examples/flash_attention/example_mha_bwd_bshd.py
if git -C "$tl" show "HEAD:$ex" > "$main/.mhab/tl/example_mha_bwd_bshd.py" 2> /dev/null; then
    echo "tilelang $ex: $(git -C "$tl" log -1 --format='%h %cs')" > "$main/.mhab/tl/SOURCE"
else
    rm -f "$main/.mhab/tl/example_mha_bwd_bshd.py"; echo "no $ex under $tl: TileLang not timed" >&2
fi
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.mhab/commit"
du -sh "$main/.mhab"
