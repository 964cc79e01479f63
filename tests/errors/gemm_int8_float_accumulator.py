import tilelang.language as T


# int8 mma accumulates in int32; a float accumulator has no instruction.
@T.prim_func
def main(A: T.Tensor((64, 64), "int8"), B: T.Tensor((64, 64), "int8"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 64), "int8")
        B_shared = T.alloc_shared((64, 64), "int8")
        C_local = T.alloc_fragment((64, 64), "float32")
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, C_local)  # expect-error: no mma.sync for int8 operands with a float32 accumulator
        T.copy(C_local, C)
