# A call missing its closing parenthesis (the next line is reported too).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(64):
            A[i] = T.max(A[i], 0.0  # expect-error(col 25): '(' was never closed
        A[0] = 1.0  # expect-error(col 9): expected ',' or ')' after call argument, found 'A'
