# Annotating one buffer twice is an error naming the first annotation (the last one used to win
# silently).
import tilelang
import tilelang.language as T
from tilelang.layout import make_swizzled_layout


@tilelang.jit(out_idx=[-1])
def copy(M=64, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as (bx,):
            S = T.alloc_shared((M, N), "float16")
            T.annotate_layout({S: make_swizzled_layout(S)})
            T.annotate_layout({S: T.Layout((M, N), lambda i, j: i * (N + 8) + j)})  # expect-error(col 13): 'S' already has a layout (annotated at line 15)
            T.copy(A, S)
            T.copy(S, B)

    return main
