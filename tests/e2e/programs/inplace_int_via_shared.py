# An int32 output copied into shared memory before anything wrote it (helper-120): without
# `tilec run --inout B` the read of S stops with "an element of 'S' is read with no value" and
# the --inout hint; with it, B starts from random values and B = B + A is checked.
import tilelang
import tilelang.language as T


@tilelang.jit
def inplace_int_via_shared(N=64):
    @T.prim_func
    def main(B: T.Tensor((N,), T.int32), A: T.Tensor((N,), T.int32)):
        with T.Kernel(1, threads=64) as bx:
            S = T.alloc_shared((N,), T.int32)
            T.copy(B, S)
            for i in T.Parallel(N):
                B[i] = S[i] + A[i]

    return main


def ref_program(B, A):
    return B + A
