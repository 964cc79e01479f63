# A dedent to a column that matches no enclosing block.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(64):
            A[i] = 0.0
          A[0] = 1.0  # expect-error(col 1): unindent does not match any outer indentation level
