import tilelang.language as T


# T.use_swizzle walks panels of block rows ("row") or block columns ("col"); nothing else.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(2, 2, threads=128) as (bx, by):
        T.use_swizzle(4, order="diagonal")  # expect-error(col 26): T.use_swizzle: order must be "row" or "col"
        s = T.alloc_shared((32, 32), "float16")
        T.copy(A[by * 32, bx * 32], s)
        T.copy(s, B[by * 32, bx * 32])
