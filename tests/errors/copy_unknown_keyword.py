# A keyword argument T.copy does not have.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        s = T.alloc_shared((64,), "float32")
        T.copy(A, s, foo=1)  # expect-error(col 22): T.copy() got an unexpected keyword argument 'foo'
        T.copy(s, B)
