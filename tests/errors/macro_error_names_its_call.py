import tilelang.language as T


# An error inside a macro body names the call that expanded it, through every enclosing macro:
# the same body is elaborated once per call, with other arguments each time.
@T.macro
def inner(dst, src, i):
    dst[i] = src[i, 0] * 2.0  # expect-error(col 14): too many indices for 'A': 2 given, rank 1 (in @T.macro 'inner' called at line 13:5, from 'outer' at line 20:13)


@T.macro
def outer(dst, src, i):
    inner(dst, src, i)


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        for i in T.Parallel(64):
            outer(B, A, i)
