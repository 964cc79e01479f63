import tilelang.language as T


# B operands are read from shared memory only (no gemm_sr on this target).
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), O: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 64), "float16")
        w = T.alloc_fragment((64, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(A, A_shared)
        T.fill(w, 1)
        T.clear(acc)
        T.gemm(A_shared, w, acc)  # expect-error: operand 'w' is in fragment memory
        T.copy(acc, O)
