# Golden: element-wise add of 50x70 matrices in 16x32 fragment tiles (ragged in both dims): the
# predicated vector copies of lower-tile-ops and what simplify-final folds away afterwards.
# golden: infer-layouts lower-tile-ops lower-to-threads simplify-final
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def add(M=50, N=70, block_M=16, block_N=32, threads=128):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            a = T.alloc_fragment((block_M, block_N), "float32")
            b = T.alloc_fragment((block_M, block_N), "float32")
            T.copy(A[by * block_M, bx * block_N], a)
            T.copy(B[by * block_M, bx * block_N], b)
            for i, j in T.Parallel(block_M, block_N):
                a[i, j] = a[i, j] + b[i, j]
            T.copy(a, C[by * block_M, bx * block_N])

    return main
