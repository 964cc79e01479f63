import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 64), "float16")
        C_local = T.alloc_fragment((64, 64), "float32")
        T.copy(A, A_shared)
        T.gemmm(A_shared, A_shared, C_local)  # expect-error(col 9): T.gemmm
        T.copy(C_local, C)
