# An integer output updated in place (TileLang's issue-1374 test does `B[i, j] += A_local[...]`
# on an int32 B without out_idx): B's initial values matter. Without `tilec run --inout B` the
# first read of B stops with "'B' is read before it is written" and the hint to pass --inout B;
# with it, B starts from random values like an input and the reference gets them too.
import tilelang
import tilelang.language as T


@tilelang.jit
def inplace_int_add(rows=16, cols=96):
    @T.prim_func
    def main(B: T.Tensor((rows, cols), T.int32), A: T.Tensor((rows, cols // 32), T.int32)):
        with T.Kernel(1, threads=128) as bx:
            A_local = T.alloc_fragment((rows, cols // 32), T.int32)
            T.copy(A, A_local)
            for i, j in T.Parallel(rows, cols):
                B[i, j] += A_local[i, j // 32]

    return main


def ref_program(B, A):
    return B + A.repeat_interleave(32, dim=1)
