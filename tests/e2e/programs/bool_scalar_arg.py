# A bool scalar argument beside a bool tensor: B = A where both the mask M and flag are set.
# `--param flag=2` is refused (it was True on the GPU and 2 in the reference, helper-119).
import tilelang
import tilelang.language as T


@tilelang.jit
def bool_scalar_arg(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), M: T.Tensor((N,), T.bool), flag: T.bool, B: T.Tensor((N,), T.float32)):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(N):
                B[i] = T.if_then_else(M[i] and flag, A[i], 0.0)

    return main


def ref_program(A, M, flag):
    return A * M * flag
