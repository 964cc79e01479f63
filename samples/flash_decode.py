# Split-KV attention decode (flash decoding): one new query token per sequence attends to a long
# key/value cache. With one query row per head there is too little work per head for the GPU, so
# the cache is cut into num_split chunks processed by different blocks, and a second kernel
# combines them. Grouped-query attention: `groups` consecutive query heads share one key/value
# head, and one block serves all of them at once (they are the rows of its score tile, so the
# GEMMs have M = block_H >= groups rows; rows past the group are computed and never stored).
#  1. flash_decode_split: block (kv head, split, batch) runs the online softmax of
#     flash_attn_fwd.py over its chunk of keys and writes the chunk's normalised output
#     O_part[b, h, split, :] and its log-sum-exp lse_part[b, h, split] (base 2, fp32). A chunk
#     past the end of the cache (more splits than key tiles) writes O = 0 and lse = -inf.
#  2. flash_decode_combine: block (head, batch) weighs the chunks by 2^(lse - max lse):
#     O = sum_s 2^(lse_s - m) O_s / sum_s 2^(lse_s - m).
#   tilec run samples/flash_decode.py --chain flash_decode_split,flash_decode_combine --ref decode_ref --param seqlen_kv=1000
import tilelang
import tilelang.language as T
import torch
import torch.nn.functional as F


@tilelang.jit(out_idx=[-2, -1])
def flash_decode_split(batch=2, heads=8, groups=4, seqlen_kv=500, dim=64, num_split=4, block_N=64,
                       block_H=16, num_stages=2, threads=128, dtype="float16"):
    assert heads % groups == 0, "heads must be a multiple of groups"
    assert groups <= block_H, "a block serves one group: block_H must be at least groups"
    kv_heads = heads // groups
    qk_scale = 1.4426950408889634 / dim**0.5  # log2(e) / sqrt(dim)
    acc = "float32"
    kv_tiles = (seqlen_kv + block_N - 1) // block_N
    tiles_per_split = (kv_tiles + num_split - 1) // num_split
    total_flops = 4 * batch * heads * seqlen_kv * dim
    total_bytes = 2 * batch * (heads * dim + 2 * seqlen_kv * kv_heads * dim) + 4 * batch * heads * num_split * (dim + 1)

    @T.prim_func
    def main(
        Q: T.Tensor((batch, heads, dim), dtype),
        K: T.Tensor((batch, seqlen_kv, kv_heads, dim), dtype),
        V: T.Tensor((batch, seqlen_kv, kv_heads, dim), dtype),
        O_part: T.Tensor((batch, heads, num_split, dim), acc),
        lse_part: T.Tensor((batch, heads, num_split), acc),
    ):
        with T.Kernel(kv_heads, num_split, batch, threads=threads) as (kv_head, split, b):
            h0 = kv_head * groups  # first query head of this group
            Q_s = T.alloc_shared((block_H, dim), dtype)
            K_s = T.alloc_shared((block_N, dim), dtype)
            V_s = T.alloc_shared((block_N, dim), dtype)
            S = T.alloc_fragment((block_H, block_N), acc)
            P_s = T.alloc_shared((block_H, block_N), dtype)  # every warp reads all of P (FullCol)
            acc_o = T.alloc_fragment((block_H, dim), acc)
            m = T.alloc_fragment((block_H,), acc)
            m_prev = T.alloc_fragment((block_H,), acc)
            alpha = T.alloc_fragment((block_H,), acc)
            l = T.alloc_fragment((block_H,), acc)
            l_tile = T.alloc_fragment((block_H,), acc)

            T.copy(Q[b, h0:h0 + block_H, :], Q_s)
            T.fill(acc_o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity(acc))
            t0 = split * tiles_per_split  # first key tile of this chunk
            n_tiles = T.max(T.min(tiles_per_split, kv_tiles - t0), 0)
            for kt in T.Pipelined(n_tiles, num_stages=num_stages):
                k0 = (t0 + kt) * block_N
                T.copy(K[b, k0:k0 + block_N, kv_head, :], K_s)
                for i, j in T.Parallel(block_H, block_N):
                    S[i, j] = T.if_then_else(k0 + j < seqlen_kv, 0, -T.infinity(acc))
                T.gemm(Q_s, K_s, S, transpose_B=True, policy=T.GemmWarpPolicy.FullCol)
                T.copy(m, m_prev)
                T.reduce_max(S, m, dim=1, clear=False)
                for i in T.Parallel(block_H):
                    alpha[i] = T.exp2((m_prev[i] - m[i]) * qk_scale)
                for i, j in T.Parallel(block_H, block_N):
                    S[i, j] = T.exp2(S[i, j] * qk_scale - m[i] * qk_scale)
                T.reduce_sum(S, l_tile, dim=1)
                for i in T.Parallel(block_H):
                    l[i] = l[i] * alpha[i] + l_tile[i]
                for i, j in T.Parallel(block_H, dim):
                    acc_o[i, j] *= alpha[i]
                T.copy(S, P_s)
                T.copy(V[b, k0:k0 + block_N, kv_head, :], V_s)
                T.gemm(P_s, V_s, acc_o, policy=T.GemmWarpPolicy.FullCol)
            for i, j in T.Parallel(block_H, dim):
                if i < groups:
                    O_part[b, h0 + i, split, j] = T.if_then_else(l[i] > 0, acc_o[i, j] / l[i], 0)
            for i in T.Parallel(block_H):
                if i < groups:
                    lse_part[b, h0 + i, split] = T.if_then_else(l[i] > 0, T.log2(l[i]) + m[i] * qk_scale,
                                                                -T.infinity(acc))

    return main


@tilelang.jit(out_idx=[-1])
def flash_decode_combine(batch=2, heads=8, num_split=4, dim=64, threads=128, dtype="float16"):
    acc = "float32"
    total_flops = 3 * batch * heads * num_split * dim
    total_bytes = 4 * batch * heads * num_split * (dim + 1) + 2 * batch * heads * dim

    @T.prim_func
    def main(
        O_part: T.Tensor((batch, heads, num_split, dim), acc),
        lse_part: T.Tensor((batch, heads, num_split), acc),
        O: T.Tensor((batch, heads, dim), dtype),
    ):
        with T.Kernel(heads, batch, threads=threads) as (h, b):
            lse_max = T.alloc_local((1,), acc)
            weight = T.alloc_local((1,), acc)
            denom = T.alloc_local((1,), acc)
            o = T.alloc_fragment((dim,), acc)
            lse_max[0] = -T.infinity(acc)
            for s in T.serial(num_split):
                lse_max[0] = T.max(lse_max[0], lse_part[b, h, s])
            denom[0] = 0
            T.clear(o)
            for s in T.serial(num_split):
                weight[0] = T.exp2(lse_part[b, h, s] - lse_max[0])  # 0 for an empty chunk
                denom[0] += weight[0]
                for d in T.Parallel(dim):
                    o[d] += weight[0] * O_part[b, h, s, d]
            for d in T.Parallel(dim):
                O[b, h, d] = T.cast(o[d] / denom[0], dtype)

    return main


def decode_ref(Q, K, V):
    # One query token: SDPA over (batch, heads, 1, dim) queries and (batch, kv_heads, seq, dim)
    # keys/values, each key/value head repeated over its group of consecutive query heads.
    o = F.scaled_dot_product_attention(Q.unsqueeze(2), K.transpose(1, 2), V.transpose(1, 2), enable_gqa=True)
    return o.squeeze(2)


def combine_ref(O_part, lse_part):
    # flash_decode_combine alone: chunks weighted by 2^(lse - max lse).
    w = torch.exp2(lse_part - lse_part.amax(dim=-1, keepdim=True))
    return (w.unsqueeze(-1) * O_part).sum(dim=2) / w.sum(dim=-1, keepdim=True)


def ref_program(Q, K, V, num_split, block_N):
    # flash_decode_split alone: each chunk's normalised attention output and log2-sum-exp.
    seqlen_kv = K.size(1)
    groups = Q.size(1) // K.size(2)
    kv_tiles = (seqlen_kv + block_N - 1) // block_N
    per_split = ((kv_tiles + num_split - 1) // num_split) * block_N
    k = K.transpose(1, 2).repeat_interleave(groups, dim=1)  # (batch, heads, seq, dim)
    v = V.transpose(1, 2).repeat_interleave(groups, dim=1)
    s = (Q.unsqueeze(2) @ k.transpose(2, 3)).squeeze(2) / Q.size(2) ** 0.5  # (batch, heads, seq)
    outs, lses = [], []
    for c in range(num_split):
        lo, hi = min(c * per_split, seqlen_kv), min((c + 1) * per_split, seqlen_kv)
        if hi > lo:
            p = s[:, :, lo:hi].softmax(dim=-1)
            outs.append((p.unsqueeze(2) @ v[:, :, lo:hi, :]).squeeze(2))
            lses.append(s[:, :, lo:hi].logsumexp(dim=-1) * 1.4426950408889634)
        else:
            outs.append((s[:, :, :1] * 0.0).expand(-1, -1, Q.size(2)))
            lses.append(s[:, :, 0] * 0.0 - float("inf"))
    return torch.stack(outs, dim=2), torch.stack(lses, dim=2)
