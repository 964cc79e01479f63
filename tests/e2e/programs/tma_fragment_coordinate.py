# A copy whose source coordinate is read from a fragment inside the loop (`a = idx[i]`, then
# `T.copy(A[a, 0], tile)`), the shape of TileLang's block-sparse tests: on sm_90a the copy is a
# TMA box whose coordinate is that register (until 2026-12-07 the lowered coordinate still named
# the fragment, and NVRTC rejected an undefined `idx_1`). Each block gathers `nb` row blocks of A
# by an index table (clamped into range) and stores them side by side; guarded=True puts the
# copies under a condition on the fragment (a plain TMA copy, TileLang's let_layout shape).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def gather_blocks(M=512, N=128, nb=4, block_M=64, guarded=False, dtype="float16"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Idx: T.Tensor((M // block_M, nb), "int32"),
             B: T.Tensor((M, nb * N), dtype)):
        with T.Kernel(M // block_M, threads=128) as by:
            tile = T.alloc_shared((block_M, N), dtype)
            idx = T.alloc_fragment((nb,), "int32")
            T.copy(Idx[by, :], idx)
            for i in T.Pipelined(nb, num_stages=2):
                a = T.max(T.min(idx[i], M - block_M), 0)
                if guarded:
                    # A copy under a condition is a plain TMA copy (not the pipeline's stages).
                    if idx[i] > -(2**30):
                        T.copy(A[a, 0], tile)
                        T.copy(tile, B[by * block_M, i * N])
                else:
                    T.copy(A[a, 0], tile)
                    T.copy(tile, B[by * block_M, i * N])

    return main


def ref_program(A, Idx, M=512, N=128, nb=4, block_M=64, guarded=False):
    B = torch.zeros(M, nb * N, dtype=torch.float64)
    for by in range(M // block_M):
        for i in range(nb):
            a = min(max(int(Idx[by, i]), 0), M - block_M)
            B[by * block_M:(by + 1) * block_M, i * N:(i + 1) * N] = A[a:a + block_M, :]
    return B
