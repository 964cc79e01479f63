# Copying a fragment into a smaller fragment.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        f = T.alloc_fragment((64,), "float32")
        g = T.alloc_fragment((32,), "float32")
        T.copy(A, f)
        T.copy(f, g)  # expect-error(col 9): T.copy: shapes do not match: the source 'f' is (64,) but the
        T.copy(g, B[0:32])
