# An on-chip buffer allocated in one T.Kernel block and used in the next: Python keeps the name
# bound after the `with`, but each block is its own launch. A fuzzed corpus file reached
# lower-tile-ops with this ("fragment 'acc' has no registers here", an internal error).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def two_blocks(N=128, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            acc = T.alloc_fragment((block,), "float32")
            T.copy(A[bx * block], acc)
            T.copy(acc, B[bx * block])
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            T.copy(acc, B[bx * block])  # expect-error(col 13): fragment buffer 'acc' (allocated at line 14) is used in another T.Kernel block
            # expect-hint: allocate it inside this T.Kernel block as well

    return main
