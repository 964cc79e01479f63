# A T.copy whose start comes from a scalar argument, which may be negative: `off = -3` reads 3
# elements before the row, which are out of bounds and read 0 (T.copy's rule), on the GPU as on
# both interpreters -- the `>= 0` half of the guard must be there (a scalar argument is not
# non-negative by its form, compiler/ir/NonNegative.h). The floor division of `off` is floor, not
# C's truncation, for negative values too.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def shifted_rows(M=4, K=256, block_K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), off: T.int32, B: T.Tensor((M, K), "float32")):
        with T.Kernel(M, threads=64) as row:
            A_shared = T.alloc_shared((1, block_K), "float32")
            for k in T.serial(K // block_K):
                T.copy(A[row, (off // 2) * 2 + k * block_K], A_shared)
                T.copy(A_shared, B[row, k * block_K])

    return main


def ref_program(A, off):
    M, K = A.shape
    start = (off // 2) * 2
    out = torch.zeros_like(A)
    for j in range(K):
        src = start + j
        if 0 <= src < K:
            out[:, j] = A[:, src]
    return out
