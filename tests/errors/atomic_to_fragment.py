# T.atomic_add into a register fragment: atomics need memory other threads can see.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        f = T.alloc_fragment((64,), "float32")
        g = T.alloc_fragment((64,), "float32")
        T.copy(A, f)
        T.copy(A, g)
        T.atomic_add(g, f)  # expect-error(col 9): T.atomic_add into 'g', a fragment buffer: an atomic updates global or shared memory
        T.copy(g, B)
