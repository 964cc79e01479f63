# Fragment -> fragment copies between different layouts (lowered through a shared tile): the
# gemm accumulator (mma layout) into a block fragment that a block reduction needs, and the
# accumulator's row maxima (lane-quad row layout) into the row layout of that block fragment,
# because one T.Parallel reads both.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def convert(M=64, N=64, K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), X: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            a = T.alloc_shared((M, K), "float16")
            b = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            acc_max = T.alloc_fragment((M,), "float32")
            row_max = T.alloc_fragment((M,), "float32")
            x = T.alloc_fragment((M, N), "float32")
            x_sum = T.alloc_fragment((M,), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.clear(acc)
            T.gemm(a, b, acc)
            T.reduce_max(acc, acc_max, dim=1)
            T.copy(acc, x)
            T.reduce_sum(x, x_sum, dim=1)
            T.copy(acc_max, row_max)
            for i, j in T.Parallel(M, N):
                x[i, j] = x[i, j] - row_max[i] + x_sum[i]
            T.copy(x, X)

    return main


def ref_program(A, B):
    C = A.float() @ B.float()
    return C - C.amax(dim=1, keepdim=True) + C.sum(dim=1, keepdim=True)
