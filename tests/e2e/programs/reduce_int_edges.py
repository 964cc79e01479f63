# Integer edges where the interpreters and the GPU once disagreed (helper-115's differential test):
# - T.reduce_min of int64 rows: the identity 9223372036854775807 is the double 2^63 in the
#   interpreters' storage, which the lowered interpreter wrapped to INT64_MIN (every row's minimum);
# - T.reduce_min(clear=False) into 3 rows over 128 threads: threads that own no row read a register
#   nothing wrote (the lowered interpreter stopped; the GPU ignored it);
# - T.abs of int32's minimum is that minimum on the GPU (abs.s32, two's complement): so
#   T.max(T.abs(x), 3) = 3, T.abs(x) > 0 is false and int64(T.abs(x)) = -2147483648. The
#   interpreters kept +2147483648 (unwrapped).
# M=2, N=64, threads=32 is the shape where the int64 identity survives into the shuffles.
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-3, -2, -1])
def reduce_int_edges(M=3, N=17, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "int64"), D: T.Tensor((M,), "int32"), I: T.Tensor((M,), "int32"),
             Bmin: T.Tensor((M,), "int64"), Bacc: T.Tensor((M,), "int32"), O: T.Tensor((M, 3), "int64")):
        with T.Kernel(1, threads=threads) as bx:
            f = T.alloc_fragment((M, N), "int64")
            r = T.alloc_fragment((M,), "int64")
            g = T.alloc_fragment((M, N), "int32")
            q = T.alloc_fragment((M,), "int32")
            T.copy(A, f)
            T.reduce_min(f, r, dim=1)
            T.copy(r, Bmin)
            for i, j in T.Parallel(M, N):
                g[i, j] = T.cast(A[i, j], "int32")
            T.copy(D, q)
            T.reduce_min(g, q, dim=1, clear=False)
            T.copy(q, Bacc)
            for i in T.Parallel(M):
                x = T.if_then_else(i == 0, -2147483648, I[i])
                O[i, 0] = T.cast(T.max(T.abs(x), 3), "int64")
                O[i, 1] = T.cast(T.abs(x) > 0, "int64")
                O[i, 2] = T.cast(T.abs(x), "int64")

    return main


def ref_program(A, D, I):
    M = A.shape[0]
    first = torch.arange(M) == 0
    ai = I.to(torch.int64).abs()
    o = torch.stack([torch.where(first, torch.tensor(3), torch.maximum(ai, torch.tensor(3))),
                     torch.where(first, torch.tensor(0), (ai > 0).to(torch.int64)),
                     torch.where(first, torch.tensor(-2147483648), ai)], dim=1)
    return A.amin(1), torch.minimum(A.to(torch.int32).amin(1), D), o
