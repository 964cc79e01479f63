# A (1, N) fragment on 128 threads: N = 192 is not a multiple of the thread count and odd N
# leaves a ragged tail; the inferred block fragment pads it and lowering predicates the tail.
import tilelang
import tilelang.language as T


def row_tail(N=192, threads=128):
    @T.prim_func
    def main(A: T.Tensor((1, N), "float32"), B: T.Tensor((1, N), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            X = T.alloc_fragment((1, N), "float32")
            T.copy(A, X)
            for i, j in T.Parallel(1, N):
                X[i, j] = X[i, j] * 3.0 - 1.0
            T.copy(X, B)
    return main


def ref_program(A):
    return A * 3.0 - 1.0
