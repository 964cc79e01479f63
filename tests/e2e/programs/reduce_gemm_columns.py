# Reductions the shuffle lowerings do not cover, from a gemm: the column sums (dim=0) of an mma
# accumulator (2 x 2 warp grid, so each column is spread over two warps' rows), the row sums of
# the same product read from a shared tile (a shared source), and the column maxima written
# straight into a shared tile (a shared destination) before they go out; each of the 3 blocks
# writes its own row of ColSum/ColMax.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4])
def gemm_columns(M=96, N=64, K=48, block_M=32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        ColSum: T.Tensor((T.ceildiv(M, block_M), N), "float32"),
        RowSum: T.Tensor((M,), "float32"),
        ColMax: T.Tensor((T.ceildiv(M, block_M), N), "float32"),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            a = T.alloc_shared((block_M, K), "float16")
            b = T.alloc_shared((K, N), "float16")
            c = T.alloc_fragment((block_M, N), "float32")
            c_s = T.alloc_shared((block_M, N), "float32")
            csum = T.alloc_fragment((N,), "float32")
            rsum = T.alloc_fragment((block_M,), "float32")
            cmax = T.alloc_shared((N,), "float32")
            T.copy(A[bx * block_M, 0], a)
            T.copy(B[0, 0], b)
            T.clear(c)
            T.gemm(a, b, c, policy=T.GemmWarpPolicy.Square)
            T.reduce_sum(c, csum, dim=0)
            T.copy(c, c_s)
            T.reduce_sum(c_s, rsum, dim=1)
            T.reduce_max(c_s, cmax, dim=0)
            T.copy(csum, ColSum[bx, 0])
            T.copy(rsum, RowSum[bx * block_M])
            T.copy(cmax, ColMax[bx, 0])

    return main


def ref_program(A, B):
    C = A.float() @ B.float()
    Cp = C.reshape(3, 32, 64)
    return Cp.sum(dim=1), C.sum(dim=1), Cp.amax(dim=1)
