import tilelang.language as T


# Not affine but wholly outside: T.min(i, 3) - 4 lies in [-4, -1] for every i (helper-133's false
# negative: only affine indices were checked). The GPU would read 0 for every element.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = A[T.min(i, 3) - 4]  # expect-error(col 20): index T.min(i, 3) - 4 of tensor 'A' ranges within [-4, -1], wholly outside dimension 0 of shape (64,) for i in [0, 63] (T.Parallel at line 9): no access of it is in bounds
            # expect-hint: valid indices are 0..63; adjust the index (the GPU would read 0 and skip the stores)
