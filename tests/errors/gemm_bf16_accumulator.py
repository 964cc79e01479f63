import tilelang.language as T


# mma.sync has no bf16 accumulator (bf16 multiplies into f32 only).
@T.prim_func
def main(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 64), "bfloat16")
        B_shared = T.alloc_shared((64, 64), "bfloat16")
        C_local = T.alloc_fragment((64, 64), "bfloat16")
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, C_local)  # expect-error: no mma.sync for bfloat16 operands with a bfloat16 accumulator
        T.copy(C_local, C)
