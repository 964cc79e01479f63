# BitBLAS's TVM fork spells the language module `tvm.tl.language` (TileLang's bitnet int8 x int8
# benchmark): it is not TileLang's tilelang.language, and TileScope says so where the kernel
# first uses it.
from bitblas import tvm as tvm
import tvm.tl.language as T


def tl_matmul(M=64, N=64, K=64):
    dtype = T.float16  # expect-error(col 13): module 'tvm.tl.language' is not available at compile time: BitBLAS's TVM fork (tvm.tl) is not TileLang
    # expect-hint: write the kernel with TileLang's language module: `import tilelang.language as T`

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, threads=128) as bx:
            C[0, 0] = A[0, 0]

    return main
