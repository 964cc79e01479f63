# Layout-width sweep program (issue 4): one row X(1, N) through a register fragment, y = 2x + 1,
# back to Y. Fragment layouts for widths that are not multiples of the vector width or of the
# thread count leave padded slots that the lowering must predicate; LoweredInterpTest runs it for
# every N in 1..520 on both interpreters. Also runnable directly:
#   tilec run tests/e2e/programs/affine_row.py --param N=37 --interp=lowered
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def affine_row(N=37, threads=128, dtype="float32"):

    @T.prim_func
    def main(X: T.Tensor((1, N), dtype), Y: T.Tensor((1, N), dtype)):
        with T.Kernel(1, threads=threads) as (bx,):
            x = T.alloc_fragment((1, N), dtype)
            T.copy(X[0, 0], x)
            for i, j in T.Parallel(1, N):
                x[i, j] = 2 * x[i, j] + 1
            T.copy(x, Y[0, 0])

    return main


def ref_program(X):
    return 2 * X + 1


flops = 2 * N
bytes = 2 * N * 4
