# Loops that start below zero (fresh-user trial, 2026-12-04): their variables are as signed as their
# start, so floor division and modulo of them must be floor operations in the CUDA (C's / and %
# truncate: -4 // 3 is -2, not -1), a global access indexed by them keeps the `>= 0` half of its
# bounds guard (a zero-padded 3-row stencil reads row -1), and a T.copy into global memory that
# starts at a negative column is not a TMA store on sm_90a (such stores fault on the H200).
#   tilec run tests/e2e/programs/negative_loop_start.py --interp --param lo=-4
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1, 2, 3])
def negative_loop_start(M=64, N=192, lo=-4, block_M=32, block_N=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Q: T.Tensor((8, 2), "int32"), S: T.Tensor((M, N), dtype),
             B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (by):
            # floor division / modulo of a loop variable that runs over lo..lo+7
            for k in T.serial(lo, lo + 8):
                if T.get_thread_binding() == 0 and by == 0:
                    Q[k - lo, 0] = k // 3
                    Q[k - lo, 1] = k % 3
            # zero-padded 3-row sum: rows by*block_M + d + i for d in -1..1 (row -1 reads as 0)
            acc = T.alloc_fragment((block_M, N), "float32")
            tile = T.alloc_shared((block_M, N), dtype)
            T.clear(acc)
            for d in T.serial(-1, 2):
                T.copy(A[by * block_M + d, 0], tile)
                for i, j in T.Parallel(block_M, N):
                    acc[i, j] += T.cast(tile[i, j], "float32")
            T.copy(acc, S[by * block_M, 0])
            # column tiles k = -1 .. 2 of B: tile -1 lies before the tensor (nothing of it is stored)
            C = T.alloc_shared((block_M, block_N), dtype)
            for k in T.serial(-1, T.ceildiv(N, block_N)):
                T.copy(A[by * block_M, k * block_N], C)
                T.copy(C, B[by * block_M, k * block_N])

    return main


def ref_program(A, lo):
    ks = torch.arange(lo, lo + 8, dtype=torch.int64)
    q = torch.stack([torch.div(ks, 3, rounding_mode="floor"), torch.remainder(ks, 3)], dim=1).to(torch.int32)
    a = A.double()
    up = torch.cat([torch.zeros_like(a[:1]), a[:-1]])
    down = torch.cat([a[1:], torch.zeros_like(a[:1])])
    return q, (up + a + down), A
