# TMA eligibility sweep, plain copies (issue 9): rows of A from column `off` on, `tail` columns,
# go through a shared tile with a plain T.copy (no T.Pipelined) into Out. loop=0: one tile per
# block (grid over the 64-column tiles); loop=1: each block walks its tiles in a T.serial loop,
# so the copy's mbarrier is waited once per iteration (parity k % 2); loop=2: the same under an
# `if` in the loop (the parity is a register flipped after each wait). The row pitch is off + tail
# elements, so off = 0..8, tail = 1..130 covers every start alignment and every tail for 4-, 2-
# and 1-byte elements; on sm_90a the copy is a TMA load exactly where cuTensorMapEncodeTiled
# allows it (row pitch a multiple of 16 bytes). Out = A[:, off:].
#   tilec run tests/e2e/programs/tma_plain_copy.py --target cuda:sm_90a --param off=3 --param tail=77
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def tma_plain_copy(off=0, tail=64, dtype="float16", loop=0, M=32, block_M=16, block_K=64):
    K = off + tail
    tiles = T.ceildiv(tail, block_K)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), Out: T.Tensor((M, tail), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), 1 if loop else tiles, threads=128) as (by, bk):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            if loop == 2:
                for k in T.serial(tiles):
                    if A[by * block_M, 0] == A[by * block_M, 0]:  # true (finite inputs), not static: a phase register
                        T.copy(A[by * block_M, off + k * block_K], A_shared)
                        T.copy(A_shared, Out[by * block_M, k * block_K])
            elif loop:
                for k in T.serial(tiles):
                    T.copy(A[by * block_M, off + k * block_K], A_shared)
                    T.copy(A_shared, Out[by * block_M, k * block_K])
            else:
                T.copy(A[by * block_M, off + bk * block_K], A_shared)
                T.copy(A_shared, Out[by * block_M, bk * block_K])

    return main


def ref_program(A, off):
    return A[:, off:]
