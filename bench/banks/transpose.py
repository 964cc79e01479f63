# Transposed copy B = A^T through a shared tile: rows are written to shared memory row-wise and
# read back column-wise, the textbook bank-conflict case. pad=1 adds one element per row (the
# textbook fix). Used by bench/h200_banks.sh: predicted (tilec banks) vs measured (CUPTI) conflicts.
#   tilec banks bench/banks/transpose.py --param pad=0
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def transpose(M=1024, N=1024, block=32, pad=0, dtype="float32", threads=256):

    @T.prim_func
    def main(
            A: T.Tensor((M, N), dtype),
            B: T.Tensor((N, M), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=threads) as (bx, by):
            S = T.alloc_shared((block, block + pad), dtype)
            for i, j in T.Parallel(block, block):
                S[i, j] = A[by * block + i, bx * block + j]
            for i, j in T.Parallel(block, block):
                B[bx * block + i, by * block + j] = S[j, i]

    return main


def ref_program(A):
    return A.T


flops = 0
bytes = 2 * M * N * (2 if dtype in ("float16", "bfloat16") else 4)
