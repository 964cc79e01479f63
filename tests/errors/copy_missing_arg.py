# T.copy with only a source.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        s = T.alloc_shared((64,), "float32")
        T.copy(A)  # expect-error(col 9): T.copy() missing required argument 'dst'
