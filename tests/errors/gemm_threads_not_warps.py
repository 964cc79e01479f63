import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=100) as (bx,):
        A_shared = T.alloc_shared((64, 32), "float16")
        B_shared = T.alloc_shared((32, 64), "float16")
        C_local = T.alloc_fragment((64, 64), "float32")
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, C_local)  # expect-error: T.gemm needs whole warps: threads=100
        T.copy(C_local, C)
