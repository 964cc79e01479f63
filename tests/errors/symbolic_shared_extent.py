import tilelang
import tilelang.language as T


@tilelang.jit
def kernel(block=64):
    n = T.dynamic("n")

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=64) as bx:
            S = T.alloc_shared((n,), "float32")  # expect-error: the shape must be known at compile time
            T.copy(A[bx * block], S)
            T.copy(S, B[bx * block])

    return main
