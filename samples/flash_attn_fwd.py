# FlashAttention forward over (batch, seq, heads, dim) tensors ("bshd", the layout most models
# keep), with grouped-query attention: `groups` consecutive query heads read the same key/value
# head, so K and V have heads // groups heads (groups=1 is plain multi-head attention).
#
# One block owns block_M query rows of one head. It keeps its Q tile in shared memory and walks
# the key/value sequence in block_N tiles (a software pipeline of num_stages), holding for every
# query row the running maximum m and the running denominator l of the softmax (online softmax),
# so the seq x seq score matrix never exists in memory:
#     S = Q K^T                        (scores of this key tile, fp32 accumulator)
#     m' = max(m, rowmax(S));  P = exp2((S - m') * log2(e) / sqrt(dim))
#     alpha = exp2((m - m') * log2(e) / sqrt(dim));  l = alpha * l + rowsum(P);  O = alpha * O + P V
# and divides O by l at the end. exp2 with log2(e) folded into the scale is one FMUL + MUFU.EX2.
# Masking: keys at or past seq_len (the ragged last tile) and, when is_causal, keys after the
# query: their scores are set to -inf after the gemm, so their probabilities are exactly 0.
# Causal blocks stop at the key tile that holds their last query row. Query rows past seq_len
# are computed on zero rows and never stored (the copy out is bounds-checked).
#   tilec run samples/flash_attn_fwd.py --param seq_len=1000 --param is_causal=True --param groups=4
import tilelang
import tilelang.language as T
import torch.nn.functional as F


@tilelang.jit(out_idx=[3])
def flash_attn_fwd(batch=1, heads=4, seq_len=100, dim=64, groups=1, is_causal=False, block_M=64,
                   block_N=64, num_stages=2, threads=128, dtype="float16"):
    # A query head past the last whole group would read a K/V head that does not exist.
    assert heads % groups == 0, "heads must be a multiple of groups"
    kv_heads = heads // groups
    qk_scale = 1.4426950408889634 / dim**0.5  # log2(e) / sqrt(dim)
    acc = "float32"
    q_shape = (batch, seq_len, heads, dim)
    kv_shape = (batch, seq_len, kv_heads, dim)

    @T.prim_func
    def main(
        Q: T.Tensor(q_shape, dtype),
        K: T.Tensor(kv_shape, dtype),
        V: T.Tensor(kv_shape, dtype),
        O: T.Tensor(q_shape, dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (qb, head, b):
            kv_head = head // groups
            q0 = qb * block_M  # first query row of this block
            Q_s = T.alloc_shared((block_M, dim), dtype)
            K_s = T.alloc_shared((block_N, dim), dtype)
            V_s = T.alloc_shared((block_N, dim), dtype)
            S = T.alloc_fragment((block_M, block_N), acc)
            P = T.alloc_fragment((block_M, block_N), dtype)
            acc_o = T.alloc_fragment((block_M, dim), acc)
            m = T.alloc_fragment((block_M,), acc)
            m_prev = T.alloc_fragment((block_M,), acc)
            alpha = T.alloc_fragment((block_M,), acc)
            l = T.alloc_fragment((block_M,), acc)
            l_tile = T.alloc_fragment((block_M,), acc)

            T.copy(Q[b, q0:q0 + block_M, head, :], Q_s)
            T.fill(acc_o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity(acc))
            kv_tiles = T.ceildiv(seq_len, block_N)
            if is_causal:
                kv_tiles = T.min(kv_tiles, T.ceildiv(q0 + block_M, block_N))
            for kt in T.Pipelined(kv_tiles, num_stages=num_stages):
                k0 = kt * block_N  # first key of this tile
                T.copy(K[b, k0:k0 + block_N, kv_head, :], K_s)
                # clear_accum: S = Q K^T, not +=, so the score registers need no zeroing (on
                # sm_90a the wgmma's first k-step ignores them).
                T.gemm(Q_s, K_s, S, transpose_B=True, clear_accum=True, policy=T.GemmWarpPolicy.FullRow)
                # Only tiles that reach past the diagonal (causal) or past seq_len need the mask
                # (a uniform branch: every thread takes the same arm). A masked score is -inf,
                # so its probability is exactly 0.
                if is_causal:
                    unmasked = k0 + block_N - 1 <= q0
                else:
                    unmasked = k0 + block_N <= seq_len
                if not unmasked:
                    for i, j in T.Parallel(block_M, block_N):
                        if is_causal:
                            S[i, j] = T.if_then_else(k0 + j <= q0 + i, S[i, j], -T.infinity(acc))
                        else:
                            S[i, j] = T.if_then_else(k0 + j < seq_len, S[i, j], -T.infinity(acc))

                T.copy(m, m_prev)
                T.reduce_max(S, m, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    alpha[i] = T.exp2((m_prev[i] - m[i]) * qk_scale)
                for i, j in T.Parallel(block_M, block_N):
                    S[i, j] = T.exp2(S[i, j] * qk_scale - m[i] * qk_scale)
                T.reduce_sum(S, l_tile, dim=1)
                for i in T.Parallel(block_M):
                    l[i] = l[i] * alpha[i] + l_tile[i]
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= alpha[i]
                T.copy(S, P)

                T.copy(V[b, k0:k0 + block_N, kv_head, :], V_s)
                T.gemm(P, V_s, acc_o, policy=T.GemmWarpPolicy.FullRow)
            # One division per row and a multiply per element: an IEEE division is a dozen
            # instructions, and each thread holds dim / 2 elements of only two rows.
            for i in T.Parallel(block_M):
                l[i] = 1.0 / l[i]
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] *= l[i]
            T.copy(acc_o, O[b, q0:q0 + block_M, head, :])

    return main


def ref_program(Q, K, V, is_causal):
    # SDPA on (batch, heads, seq, dim) views; enable_gqa repeats each key/value head over its
    # group of consecutive query heads, the kernel's head // groups.
    o = F.scaled_dot_product_attention(Q.transpose(1, 2), K.transpose(1, 2), V.transpose(1, 2),
                                       is_causal=is_causal, enable_gqa=True)
    return o.transpose(1, 2)


# Work of one launch as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file).
def total_flops(batch, heads, seq_len, dim, is_causal):
    # Q K^T and P V: 2 * seq^2 * dim each per head; causal keeps half of the score matrix (the
    # convention of FlashAttention's and cuDNN's benchmarks).
    return 4 * batch * heads * seq_len * seq_len * dim // (2 if is_causal else 1)


def total_bytes(batch, heads, seq_len, dim, groups, dtype):
    # Q and O once; K and V once per key/value head (a lower bound: every query block rereads them).
    elt = 2 if dtype in ("float16", "bfloat16") else 4
    return (2 * heads + 2 * (heads // groups)) * batch * seq_len * dim * elt
