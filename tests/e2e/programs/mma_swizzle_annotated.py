# A shared tile annotated with TileLang's make_mma_swizzle_layout (tilelang.cuda.intrinsics),
# written row-wise and read column-wise (a per-block transpose): the values must not depend on
# the physical layout. 32 float32 columns are 1024 bits (a multiple of 512: swizzled); with
# cols=24 (768 bits) TileLang keeps row-major order.
import tilelang
import tilelang.language as T
from tilelang.cuda.intrinsics import make_mma_swizzle_layout


@tilelang.jit(out_idx=[-1])
def tile_transpose(M=64, rows=32, cols=32):
    @T.prim_func
    def main(A: T.Tensor((M, cols), "float32"), B: T.Tensor((cols, M), "float32")):
        with T.Kernel(T.ceildiv(M, rows), threads=128) as bx:
            s = T.alloc_shared((rows, cols), "float32")
            T.annotate_layout({s: make_mma_swizzle_layout(s)})
            for i, j in T.Parallel(rows, cols):
                s[i, j] = A[bx * rows + i, j]
            for j, i in T.Parallel(cols, rows):
                B[j, bx * rows + i] = s[i, j]

    return main


def ref_program(A):
    return A.T
