# A grid whose y extent (65537 row blocks) exceeds CUDA's 65535: TileScope launches it as one
# x extent of 2 * 65537 blocks and recovers (bx, by) in the kernel (codegen/GridShape.h).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def rows_copy(M=65537, N=64, block_N=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), M, threads=32) as (bx, by):
            for j in T.Parallel(block_N):
                B[by, bx * block_N + j] = A[by, bx * block_N + j] * 2.0 + by

    return main


def ref_program(A):
    return A * 2.0 + torch.arange(A.shape[0])[:, None]
