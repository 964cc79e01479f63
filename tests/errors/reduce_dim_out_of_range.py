# Reducing over a dimension the fragment does not have.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16, 64), "float32"), B: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        f = T.alloc_fragment((16, 64), "float32")
        s = T.alloc_fragment((16,), "float32")
        T.copy(A, f)
        T.reduce_sum(f, s, dim=2)  # expect-error(col 28): T.reduce_sum: dim=2 is out of range for 'f' of rank 2
        T.copy(s, B)
