import tilelang.language as T

M = T.symbolic("M")


# A[M + i] with A of symbolic length M reads past the end for every M and i (helper-133's false
# negative: only constant dimensions were checked); A[M - 1 - i] is fine and not reported.
@T.prim_func
def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
    with T.Kernel(T.ceildiv(M, 64), threads=64) as bx:
        for i in T.Parallel(64):
            B[bx * 64 + i] = A[M + i] + A[M - 1 - i]  # expect-error(col 30): index M + i of tensor 'A' is at least dimension 0 (M) for every i in [0, 63] (T.Parallel at line 11): no access of it is in bounds
            # expect-hint: valid indices are 0..M - 1; adjust the index (the GPU would read 0 and skip the stores)
