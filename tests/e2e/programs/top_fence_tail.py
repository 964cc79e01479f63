# A T.Pipelined loop whose fragment-path wgmma reads a shared tile the loop itself writes with
# plain stores (InjectPipeline.cpp: the proxy fence at the top of the iteration). The A tiles are
# TMA loads (async proxy: wgmma sees them once the stage's mbarrier completes, no proxy fence);
# P_s is written by T.copy from the accumulator of A_t @ W:
#   mode 0: at the end of the iteration, after the gemm that reads it -> the write is unfenced
#           when the iteration ends and the next iteration's first gemm reads it: the top of the
#           iteration keeps fence.proxy.async before its barrier;
#   mode 1: before the gemm that reads it -> that gemm's own fence + barrier covers it, the body
#           ends clean and the top barrier has no fence.
#   mode 0: C_t = P_t @ W with P_0 = P0, P_t = half(A_{t-1} @ W);  mode 1: C_t = half(A_t @ W) @ W
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3])
def top_fence_tail(M=64, N=64, T_tiles=4, mode=0, num_stages=2, threads=128):
    @T.prim_func
    def main(A: T.Tensor((T_tiles * M, N), "float16"), W: T.Tensor((N, N), "float16"), P0: T.Tensor((M, N), "float16"),
             C: T.Tensor((T_tiles * M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, N), "float16")
            W_s = T.alloc_shared((N, N), "float16")
            P_s = T.alloc_shared((M, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            nxt = T.alloc_fragment((M, N), "float32")
            T.copy(W, W_s)
            T.copy(P0, P_s)
            for t in T.Pipelined(T_tiles, num_stages=num_stages):
                T.copy(A[t * M, 0], A_s)
                T.clear(nxt)
                T.gemm(A_s, W_s, nxt)
                if mode == 1:
                    T.copy(nxt, P_s)
                T.clear(acc)
                T.gemm(P_s, W_s, acc)
                T.copy(acc, C[t * M, 0])
                if mode == 0:
                    T.copy(nxt, P_s)

    return main


def ref_program(A, W, P0, M, mode):
    w = W.double()
    p = P0.double()
    out = []
    for t in range(A.size(0) // M):
        nxt = (A[t * M:(t + 1) * M].double() @ w).half().double()
        if mode == 1:
            p = nxt
        out.append(p @ w)
        if mode == 0:
            p = nxt
    return torch.cat(out).float()
