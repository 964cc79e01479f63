# T.reduce_sum of a per-thread T.alloc_local array: reductions read fragments and shared tiles.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((32,), "float32"), B: T.Tensor((1,), "float32")):
    with T.Kernel(1, threads=32) as (bx,):
        loc = T.alloc_local((32,), "float32")
        s = T.alloc_fragment((1,), "float32")
        for i in T.serial(32):
            loc[i] = A[i]
        T.reduce_sum(loc, s, dim=0)  # expect-error: 'loc' is a per-thread local buffer; reductions read and write fragments or shared tiles
        B[0] = s[0]
