# Single-head attention whose keys and values are a column window of wider tensors, written for
# the tests of the sm_90a TMA loads (compiler/transforms/InjectPipelineTmaFragment.cpp):
#     O = softmax(Q K[:, off:off+dim]^T / sqrt(dim)) V[:, off:off+dim]
# K and V are (seq_len, cols) with cols >= off + dim. A window at a non-zero column offset is a
# TMA box at a non-zero inner coordinate; cols whose row is not a multiple of 16 bytes (cols = 68
# in fp16) cannot be a TMA tensor (cuTensorMapEncodeTiled's stride rule), so that kernel keeps
# the cp.async loads -- same results either way. Keys past seq_len are masked; the last key
# tile and the last query block are ragged when seq_len is not a multiple of the tiles.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3])
def kv_window_attention(seq_len=100, cols=64, off=0, dim=64, block_M=64, block_N=32, num_stages=2,
                        threads=128):
    assert off + dim <= cols, "the window must fit in the tensor's columns"
    scale = 1.4426950408889634 / dim**0.5  # log2(e) / sqrt(dim)
    fp = "float16"
    acc = "float32"

    @T.prim_func
    def main(
        Q: T.Tensor((seq_len, dim), fp),
        K: T.Tensor((seq_len, cols), fp),
        V: T.Tensor((seq_len, cols), fp),
        O: T.Tensor((seq_len, dim), fp),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), threads=threads) as qb:
            qs = T.alloc_shared((block_M, dim), fp)
            ks = T.alloc_shared((block_N, dim), fp)
            vs = T.alloc_shared((block_N, dim), fp)
            s = T.alloc_fragment((block_M, block_N), acc)
            p = T.alloc_fragment((block_M, block_N), fp)
            o = T.alloc_fragment((block_M, dim), acc)
            m, m_old, l, l_tile, alpha = [T.alloc_fragment((block_M,), acc) for _ in range(5)]

            T.copy(Q[qb * block_M:(qb + 1) * block_M, :], qs)
            T.fill(o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity(acc))
            for kb in T.Pipelined(T.ceildiv(seq_len, block_N), num_stages=num_stages):
                T.copy(K[kb * block_N:(kb + 1) * block_N, off:off + dim], ks)
                for i, j in T.Parallel(block_M, block_N):
                    s[i, j] = T.if_then_else(kb * block_N + j < seq_len, 0, -T.infinity(acc))
                T.gemm(qs, ks, s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(m, m_old)
                T.reduce_max(s, m, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    alpha[i] = T.exp2((m_old[i] - m[i]) * scale)
                for i, j in T.Parallel(block_M, block_N):
                    s[i, j] = T.exp2(s[i, j] * scale - m[i] * scale)
                T.reduce_sum(s, l_tile, dim=1)
                for i in T.Parallel(block_M):
                    l[i] = l[i] * alpha[i] + l_tile[i]
                for i, j in T.Parallel(block_M, dim):
                    o[i, j] *= alpha[i]
                T.copy(s, p)
                T.copy(V[kb * block_N:(kb + 1) * block_N, off:off + dim], vs)
                T.gemm(p, vs, o, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                o[i, j] /= l[i]
            T.copy(o, O[qb * block_M:(qb + 1) * block_M, :])

    return main


def ref_program(Q, K, V, off):
    dim = Q.shape[1]
    q, k, v = Q.double(), K[:, off:off + dim].double(), V[:, off:off + dim].double()
    p = torch.softmax((q @ k.T) / dim**0.5, dim=-1)
    return (p @ v).to(Q.dtype)
