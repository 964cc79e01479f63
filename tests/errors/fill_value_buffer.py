# T.fill with a tensor as the value instead of a scalar.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        s = T.alloc_shared((64,), "float32")
        T.fill(s, A)  # expect-error(col 19): T.fill value: buffer 'A' used as a value
        T.copy(s, A)
