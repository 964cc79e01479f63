# T.Parallel nests over fragments of different layouts (the gated-delta-rule and KDA backward
# kernels of the corpus): infer-layouts gives the nest one layout and works on converted copies
# of the fragments placed otherwise (TileLang's layout conversion).
#  - acc2 (gemm accumulator, warps 1x4) is updated from acc1 (gemm accumulator, warps 4x1) and
#    from acc1's row maxima m1 (row values of acc1's layout): acc1 and m1 are converted into the
#    nest's layout, inside a T.Pipelined loop;
#  - Y reads m1[j] (indices other than the loop variables): m1 is held replicated;
#  - a nest over (j, i) scales acc1[i, j] (indices permuted: the loop follows acc1) and one
#    over (i, j) writes t[j, i] (t takes the permuted layout of the loop).
import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4, 5])
def conversions(M=64, N=64, K=64, bk=32, threads=128):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        B2: T.Tensor((K, N), "float16"),
        X: T.Tensor((M, N), "float32"),
        Y: T.Tensor((M, N), "float32"),
        Z: T.Tensor((N, M), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            a = T.alloc_shared((M, bk), "float16")
            b = T.alloc_shared((bk, N), "float16")
            b2 = T.alloc_shared((bk, N), "float16")
            acc1 = T.alloc_fragment((M, N), "float32")
            acc2 = T.alloc_fragment((M, N), "float32")
            m1 = T.alloc_fragment((M,), "float32")
            x = T.alloc_fragment((M, N), "float32")
            t = T.alloc_fragment((N, M), "float32")
            T.clear(x)
            for k in T.Pipelined(K // bk, num_stages=2):
                T.copy(A[0, k * bk], a)
                T.copy(B[k * bk, 0], b)
                T.copy(B2[k * bk, 0], b2)
                T.gemm(a, b, acc1, clear_accum=True, policy=T.GemmWarpPolicy.FullRow)
                T.gemm(a, b2, acc2, clear_accum=True, policy=T.GemmWarpPolicy.FullCol)
                T.reduce_max(acc1, m1, dim=1)
                for i, j in T.Parallel(M, N):
                    acc2[i, j] = acc2[i, j] + acc1[i, j] * 0.5 - m1[i]
                for i, j in T.Parallel(M, N):
                    x[i, j] += acc2[i, j]
            for i, j in T.Parallel(M, N):
                Y[i, j] = acc2[i, j] + m1[j]
            for j, i in T.Parallel(N, M):
                acc1[i, j] = acc1[i, j] * 2.0
            for i, j in T.Parallel(M, N):
                t[j, i] = acc1[i, j] + 1.0
            T.copy(x, X)
            T.copy(t, Z)

    return main


def ref_program(A, B, B2, bk):
    A = A.float()
    B = B.float()
    B2 = B2.float()
    x = torch.zeros(A.shape[0], B.shape[1])
    for k in range(A.shape[1] // bk):
        c1 = A[:, k * bk:(k + 1) * bk] @ B[k * bk:(k + 1) * bk, :]
        c2 = A[:, k * bk:(k + 1) * bk] @ B2[k * bk:(k + 1) * bk, :]
        c2 = c2 + c1 * 0.5 - c1.amax(dim=1, keepdim=True)
        x = x + c2
    y = c2 + c1.amax(dim=1).unsqueeze(0)
    z = (c1 * 2.0 + 1.0).t()
    return x, y, z
