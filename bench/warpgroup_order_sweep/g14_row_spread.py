# Row values of a warpgroup-order accumulator feeding other shapes: a T.Parallel(block_M, W) over a
# fresh fragment of width W (W not a multiple of 8 * warp columns: the rows-spread layout), with
# the loop written column-major (for j, i), and the rows stored through T.copy of the 1-D fragment.
#   Y[i, j] = X[i, j] * rowsum(A @ B)[i] (W columns), C = A @ B / (|rowsum| + 64), RS = rowsum
# (+64: a rowsum of random inputs can be near zero, and C = A @ B / rowsum then magnified float32
# rounding past the tolerance on the GPU: 2026-12-05d, W=3, rel-L2 1.4e-3 with Y and RS at 2e-7)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4, 5])
def row_spread(M=256, N=128, K=64, W=12, block_M=128, threads=128, policy=1):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), X: T.Tensor((M, W), "float32"),
             Y: T.Tensor((M, W), "float32"), C: T.Tensor((M, N), "float32"), RS: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bm,):
            A_s = T.alloc_shared((block_M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((block_M, N), "float32")
            rs = T.alloc_fragment((block_M,), "float32")
            x = T.alloc_fragment((block_M, W), "float32")
            T.copy(A[bm * block_M, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.clear(acc)
            T.gemm(A_s, B_s, acc, policy=pol)
            T.reduce_sum(acc, rs, dim=1)
            for j, i in T.Parallel(N, block_M):
                acc[i, j] = acc[i, j] / (T.abs(rs[i]) + 64.0)
            for i, j in T.Parallel(block_M, W):
                x[i, j] = X[bm * block_M + i, j] * rs[i]
            T.copy(x, Y[bm * block_M, 0])
            T.copy(acc, C[bm * block_M, 0])
            T.copy(rs, RS[bm * block_M])

    return main


def ref_program(A, B, X):
    c = A.double() @ B.double()
    rs = c.sum(dim=1)
    return (X.double() * rs.unsqueeze(1)).float(), (c / (rs.abs() + 64.0).unsqueeze(1)).float(), rs.float()
