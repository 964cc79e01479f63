import tilelang.language as T


# TileLang's T.atomic_addx2(dst, value, return_prev=False) has no memory_order: refused, not ignored.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=32) as bx:
        for i in T.Parallel(32):
            T.atomic_addx2(B[i * 2], A[i * 2], memory_order="seq_cst")  # expect-error(col 48): T.atomic_addx2() got an unexpected keyword argument 'memory_order'
            # expect-hint: accepted arguments: dst, value, return_prev
