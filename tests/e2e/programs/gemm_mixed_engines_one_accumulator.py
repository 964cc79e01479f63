# Two T.gemm ops accumulate into one fragment on sm_90a: one (shared tiles read by nothing else)
# takes wgmma on the fragment layouts, whose accumulator keeps one warp column; the other reads a
# tile that a T.Parallel also reads, so it stays on mma.sync and takes the accumulator's warp grid
# instead of its policy's (GemmSm80.cpp blockGemmLayouts; GemmSm90.cpp placeCoGemmAccumulator
# when the mma.sync gemm comes first: wgmma_first=False). KDA's chunk_o.py has this shape; it
# stopped at "conflicting layouts for fragment".
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4])
def mixed_engines(M=128, N=32, K=64, block_M=64, block_K=32, threads=128, policy=T.GemmWarpPolicy.Square, wgmma_first=True):
    @T.macro
    def scaled_gemm(X, W, bm, x_s, g_s, w_s, acc):
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
            T.copy(X[bm * block_M, k * block_K], x_s)
            T.copy(W[k * block_K, 0], w_s)
            for i, j in T.Parallel(block_M, block_K):
                g_s[i, j] = x_s[i, j] * 0.5
            T.gemm(g_s, w_s, acc)

    @T.macro
    def masked_gemm(L, V, bm, l_s, v_s, acc):
        T.copy(L[bm * block_M, 0], l_s)
        T.copy(V[bm * block_M, 0], v_s)
        for i, j in T.Parallel(block_M, block_M):
            l_s[i, j] = T.if_then_else(i < j, 0, l_s[i, j])
        T.gemm(l_s, v_s, acc, policy=policy)

    @T.prim_func
    def main(X: T.Tensor((M, K), "float16"), W: T.Tensor((K, N), "float16"), L: T.Tensor((M, block_M), "float16"),
             V: T.Tensor((M, N), "float16"), O: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bm:
            x_s = T.alloc_shared((block_M, block_K), "float16")
            g_s = T.alloc_shared((block_M, block_K), "float16")
            w_s = T.alloc_shared((block_K, N), "float16")
            l_s = T.alloc_shared((block_M, block_M), "float16")
            v_s = T.alloc_shared((block_M, N), "float16")
            acc = T.alloc_fragment((block_M, N), "float32")
            T.clear(acc)
            if wgmma_first:
                scaled_gemm(X, W, bm, x_s, g_s, w_s, acc)
                masked_gemm(L, V, bm, l_s, v_s, acc)
            else:
                masked_gemm(L, V, bm, l_s, v_s, acc)
                scaled_gemm(X, W, bm, x_s, g_s, w_s, acc)
            T.copy(acc, O[bm * block_M, 0])

    return main


def ref_program(X, W, L, V):
    import torch
    M = X.shape[0]
    bm = L.shape[1]
    out = (X.double() * 0.5) @ W.double()
    for b in range(0, M, bm):
        rows = min(bm, M - b)  # a ragged last block: V's rows past M read 0 (tril zeroes L's columns >= rows)
        out[b:b + rows] += torch.tril(L[b:b + rows].double())[:, :rows] @ V[b:b + rows].double()
    return out
