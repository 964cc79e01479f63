import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16, 32), "float16"), B: T.Tensor((32, 104), "float16"), C: T.Tensor((16, 104), "float32")):
    with T.Kernel(1, threads=384) as (bx,):
        A_shared = T.alloc_shared((16, 32), "float16")
        B_shared = T.alloc_shared((32, 104), "float16")
        C_local = T.alloc_fragment((16, 104), "float32")
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, C_local)  # expect-error: T.gemm: 12 warps cannot tile M=16, N=104 with policy Square
        T.copy(C_local, C)
