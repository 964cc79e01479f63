# Grouped-query attention forward over (batch, seq, heads, dim) tensors, written for the tests:
# `groups` query heads share one key/value head. Besides O it writes the base-2 log-sum-exp of
# each query row (the value a backward pass needs), so the row vectors of the online softmax
# are checked too, through a row-masked fragment -> global copy. Tiles are 64 x 32 on 4 warps
# (FullRow: each warp owns 16 query rows), K and V tiles arrive through a 2-stage T.Pipelined,
# and keys past seq_len are masked by a comparison, queries past it by the copies' bounds.
import tilelang
import tilelang.language as T
import torch
import torch.nn.functional as F


@tilelang.jit(out_idx=[3, 4])
def gqa_forward(batch=1, seq_len=80, heads=4, groups=2, dim=64, causal=False, block_M=64,
                block_N=32, threads=128):
    kv_heads = heads // groups
    sm = (1.0 / dim) ** 0.5 * 1.4426950408889634
    fp = "float16"
    acc_t = "float32"

    @T.prim_func
    def main(
        Q: T.Tensor((batch, seq_len, heads, dim), fp),
        K: T.Tensor((batch, seq_len, kv_heads, dim), fp),
        V: T.Tensor((batch, seq_len, kv_heads, dim), fp),
        O: T.Tensor((batch, seq_len, heads, dim), fp),
        LSE: T.Tensor((batch, heads, seq_len), acc_t),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (mx, hx, bx):
            kvh = hx // groups
            o = T.alloc_fragment((block_M, dim), acc_t)
            m, m_old, l, l_tile, alpha = [T.alloc_fragment((block_M,), acc_t) for _ in range(5)]
            s = T.alloc_fragment((block_M, block_N), acc_t)
            p = T.alloc_fragment((block_M, block_N), fp)
            qs = T.alloc_shared((block_M, dim), fp)
            ks, vs = T.alloc_shared((block_N, dim), fp), T.alloc_shared((block_N, dim), fp)

            T.copy(Q[bx, mx * block_M:(mx + 1) * block_M, hx, :], qs)
            T.fill(o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity(acc_t))
            last = T.ceildiv(T.min(seq_len, (mx + 1) * block_M), block_N) if causal else T.ceildiv(seq_len, block_N)
            for kb in T.Pipelined(last, num_stages=2):
                T.copy(K[bx, kb * block_N:(kb + 1) * block_N, kvh, :], ks)
                T.copy(V[bx, kb * block_N:(kb + 1) * block_N, kvh, :], vs)
                T.clear(s)
                T.gemm(qs, ks, s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                for i, j in T.Parallel(block_M, block_N):
                    if causal:
                        s[i, j] = T.if_then_else(kb * block_N + j > mx * block_M + i, -T.infinity(acc_t), s[i, j] * sm)
                    else:
                        s[i, j] = T.if_then_else(kb * block_N + j >= seq_len, -T.infinity(acc_t), s[i, j] * sm)
                T.copy(m, m_old)
                T.reduce_max(s, m, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    alpha[i] = T.exp2(m_old[i] - m[i])
                for i, j in T.Parallel(block_M, block_N):
                    s[i, j] = T.exp2(s[i, j] - m[i])
                T.reduce_sum(s, l_tile, dim=1)
                for i in T.Parallel(block_M):
                    l[i] = l[i] * alpha[i] + l_tile[i]
                for i, j in T.Parallel(block_M, dim):
                    o[i, j] = o[i, j] * alpha[i]
                T.copy(s, p)
                T.gemm(p, vs, o, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                o[i, j] /= l[i]
            T.copy(o, O[bx, mx * block_M:(mx + 1) * block_M, hx, :])
            for i in T.Parallel(block_M):
                l[i] = T.log2(l[i]) + m[i]
            T.copy(l, LSE[bx, hx, mx * block_M:(mx + 1) * block_M])

    return main


def ref_program(Q, K, V, groups, causal):
    # Explicit softmax in float64 (base 2 for the log-sum-exp, like the kernel).
    q = Q.transpose(1, 2).float()
    k = K.transpose(1, 2).float()
    v = V.transpose(1, 2).float()
    b, h, n, d = q.shape
    k = k.unsqueeze(2).expand(b, h // groups, groups, n, d).reshape(b, h, n, d)
    v = v.unsqueeze(2).expand(b, h // groups, groups, n, d).reshape(b, h, n, d)
    s = (q @ k.transpose(2, 3)) / d**0.5
    if causal:
        s = s.masked_fill(torch.triu(torch.ones(n, n), diagonal=1) > 0, float("-inf"))
    mx = s.amax(dim=-1, keepdim=True)
    e = torch.exp(s - mx)
    total = e.sum(dim=-1, keepdim=True)
    o = (e / total) @ v
    lse = (mx + torch.log(total)).squeeze(-1) * 1.4426950408889634
    return o.transpose(1, 2).half(), lse
