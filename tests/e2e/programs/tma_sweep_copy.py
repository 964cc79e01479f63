# TMA eligibility sweep, copy kernel (issue 9): rows of A from column `off` on, `tail` columns,
# go through a shared tile in a T.Pipelined loop (64-column tiles, the last one partly out of
# bounds when tail % 64 != 0) into Out. The region starts `off` elements into each row and the
# row pitch is off + tail elements, so the sweep off = 0..8, tail = 1..130 covers every start
# alignment and every tail for 4-, 2- and 1-byte elements. Out = A[:, off:].
#   tilec run tests/e2e/programs/tma_sweep_copy.py --param off=3 --param tail=77 --param dtype=float16
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def tma_sweep_copy(off=0, tail=64, dtype="float16", M=32, block_M=16, block_K=64, num_stages=2):
    K = off + tail

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), Out: T.Tensor((M, tail), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (by,):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            for k in T.Pipelined(T.ceildiv(tail, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, off + k * block_K], A_shared)
                T.copy(A_shared, Out[by * block_M, k * block_K])

    return main


def ref_program(A, off):
    return A[:, off:]
