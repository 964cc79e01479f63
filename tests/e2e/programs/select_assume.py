# T.Select (TVM's spelling of T.if_then_else) and T.assume (a promise for TileLang's simplifier).
# An assumption that reads only launch values (N, a T.dynamic size) is checked, as TileLang checks
# it at launch ("Assume: N % 4 == 0"); one per element (i < N) is not: it is a promise, and a
# check there would cost what it is meant to save.
import tilelang
import tilelang.language as T


@tilelang.jit
def shifted_relu(block=128):
    N = T.dynamic("N")

    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            T.assume(N % 4 == 0)
            for i in T.Parallel(block):
                if bx * block + i < N:
                    T.assume(bx * block + i < N)
                    v = A[bx * block + i]
                    B[bx * block + i] = T.Select(v > 0.0, v, v * 0.5 + 1.0)

    return main


def ref_program(A):
    return (A > 0) * A + (A <= 0) * (A * 0.5 + 1.0)
