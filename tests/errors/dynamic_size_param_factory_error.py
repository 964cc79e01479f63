# params: N=1000
import tilelang
import tilelang.language as T


# --param N for a T.dynamic size while the factory fails: its own error is the news; before
# (helper-127 D6) only a false "unknown parameter 'N'" was printed, N being known only after the
# factory had run.
@tilelang.jit
def k(block=128):
    N = T.dynamic("N")

    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    B[bx * block + i] = A[bx * block + i] + undefined_name  # expect-error(col 61): name 'undefined_name' is not defined

    return main
