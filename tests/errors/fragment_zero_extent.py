# A zero-sized fragment.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        f = T.alloc_fragment((0,), "float32")  # expect-error(col 13): T.alloc_fragment: extent 0 of dimension 0 must be positive
        T.fill(f, 0.0)
        T.copy(f, A[0:0])
