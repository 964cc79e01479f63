# Index arithmetic whose constant folding would overflow int64: (bx * 2**62) * 4 must stay two
# multiplies (bx is 0 in this one-block grid, so the kernel itself never overflows), while
# (bx * 3) * 4 still folds to bx * 12. Found by fuzz_pipeline (UBSan) on a corpus file given a
# 2**62 extent.
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def shift_copy(N=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(N):
                B[i] = A[(bx * 4611686018427387904) * 4 + (bx * 3) * 4 + (N - 1 - i)]

    return main


def ref_program(A):
    return torch.flip(A, [0])
