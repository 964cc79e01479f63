# A reduction whose destination has the wrong shape.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16, 64), "float32"), B: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        f = T.alloc_fragment((16, 64), "float32")
        s = T.alloc_fragment((16, 2), "float32")
        T.copy(A, f)
        T.reduce_max(f, s, dim=1)  # expect-error(col 9): T.reduce_max: the destination 's' has shape (16, 2) but reducing 'f'
        T.copy(s[:, 0], B)
