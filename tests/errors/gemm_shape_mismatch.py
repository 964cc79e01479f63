import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((16, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 32), "float16")
        B_shared = T.alloc_shared((16, 64), "float16")
        C_local = T.alloc_fragment((64, 64), "float32")
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, C_local)  # expect-error(col 9): inner dimensions do not match: A ('A_shared') gives K=32 but B ('B_shared') gives K=16
        T.copy(C_local, C)
