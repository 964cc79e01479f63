#!/usr/bin/env bash
# Issue 8, FlashAttention forward on the GPU: samples/flash_attention.py and the corpus' forward
# kernels at real sizes (B1 H16 S4096 D128) and at a sequence length that is not a multiple of
# the tiles (S=1000), causal and not, each checked by `tilec run` against a float64 reference
# (fresh random inputs, outputs poisoned with NaN), then timed with `tilec bench`.
# Builds nothing: expects a tilec binary (default build/tilec; TILEC=... to change) and the
# TileLang corpus (default .corpus, else ../shared/tilelang-corpus; CORPUS=... to change).
#   corpus kernels checked:
#   - examples/flash_attention/example_mha_bwd_bshd.py, kernel flashattn_fwd (its first kernel):
#     the file's ref_program returns O only, so a copy in $TMPDIR gets a ref_program of ours
#     appended that also returns the base-2 log-sum-exp the kernel writes (lse);
#   - examples/attention_sink/example_mha_sink_fwd_bhsd.py (causal, attention sinks; its own
#     ref_program), with the block sizes its main() uses (128 x 128, 256 threads, 2 stages).
#   not here: example_gqa_fwd_varlen.py needs valid cu_seqlens inputs (random int32 tensors
#   are not prefix sums), so `tilec run` cannot feed it.
# Usage (device tool): bash bench/attn_check.sh [sample|corpus|bench|all]   (default all)
#   -> $OUT/log-<part>.txt, $OUT/bench-*.json. Each part fits one 10-minute device command (the
#   float64 references at S=4096 take seconds to tens of seconds each on the host).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-build/tilec}
C=${CORPUS:-.corpus}; [ -d "$C/examples" ] || C=../shared/tilelang-corpus
TMPDIR=${TMPDIR:-/tmp}
export TILESCOPE_CACHE_DIR=${TILESCOPE_CACHE_DIR:-/tmp/tscache}
PART=${1:-all}
exec > >(tee "$OUT/log-$PART.txt") 2>&1
log() { echo "== $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fails=0
run() { log "tilec run $*"; "$T" run "$@" || { echo "!! FAILED: $*"; fails=$((fails+1)); }; }
bench() { local out=$1; shift; log "tilec bench $*"; "$T" bench "$@" --json "$OUT/$out" || { echo "!! FAILED bench: $*"; fails=$((fails+1)); }; }

S=samples/flash_attention.py
REAL="--param batch=1 --param heads=16 --param dim=128"
MHA="$TMPDIR/mha_bwd_bshd_fwd_ref.py"
SINK="$C/examples/attention_sink/example_mha_sink_fwd_bhsd.py"
SP="--param batch=1 --param heads=16 --param dim=128 --param block_M=128 --param block_N=128 --param num_stages=2 --param threads=256"
want() { [ "$PART" = all ] || [ "$PART" = "$1" ]; }

if want sample; then
for causal in False True; do
  run $S $REAL --param seq_len=4096 --param is_causal=$causal
  run $S $REAL --param seq_len=1000 --param is_causal=$causal
  run $S $REAL --param seq_len=4096 --param is_causal=$causal --param block_M=128 --param threads=256
  run $S $REAL --param seq_len=1000 --param is_causal=$causal --param block_M=128 --param block_N=32 --param threads=256 --param num_stages=1
done
run $S --param batch=2 --param heads=4 --param seq_len=333 --param dim=64 --param dtype=bfloat16
run $S --param batch=1 --param heads=16 --param dim=128 --param seq_len=1000 --param threads=256 --param is_causal=True
fi

if want corpus; then
cp "$C/examples/flash_attention/example_mha_bwd_bshd.py" "$MHA"
cat >> "$MHA" <<'EOF'


def ref_program(Q, K, V, is_causal):
    # (attn_check.sh) O and the base-2 log-sum-exp that flashattn_fwd writes.
    q = Q.float().transpose(1, 2)
    k = K.float().transpose(1, 2)
    v = V.float().transpose(1, 2)
    s = (q @ k.transpose(2, 3)) / Q.size(-1) ** 0.5
    if is_causal:
        n = Q.size(1)
        s = s.masked_fill(torch.triu(torch.ones(n, n), diagonal=1) > 0, float("-inf"))
    mx = s.amax(dim=-1, keepdim=True)
    e = torch.exp(s - mx)
    total = e.sum(dim=-1, keepdim=True)
    o = ((e / total) @ v).transpose(1, 2)
    lse = (mx + torch.log(total)).squeeze(-1) * 1.44269504
    return o, lse
EOF
MP="--param batch=1 --param heads=16 --param dim=128 --param block_M=64 --param block_N=32"
for causal in False True; do
  run "$MHA" $MP --param seq_len=4096 --param is_causal=$causal
  run "$MHA" $MP --param seq_len=1000 --param is_causal=$causal
done

run "$SINK" $SP --param seq_q=4096 --param seq_kv=4096
run "$SINK" $SP --param seq_q=1000 --param seq_kv=1000
run "$SINK" --param batch=1 --param heads=16 --param dim=128 --param seq_q=1000 --param seq_kv=1300
fi

if want bench; then
log "bench"
bench bench-fa-s4096.json $S $REAL --param seq_len=4096
bench bench-fa-s4096-causal.json $S $REAL --param seq_len=4096 --param is_causal=True
bench bench-fa-s4096-bm128.json $S $REAL --param seq_len=4096 --param block_M=128 --param threads=256
bench bench-sink-s4096.json "$SINK" $SP --param seq_q=4096 --param seq_kv=4096
fi
log "failures: $fails"
exit $((fails > 0))
