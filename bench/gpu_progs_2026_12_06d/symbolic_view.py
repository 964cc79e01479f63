# A float32 view of a float16 tensor whose extents use a symbolic size: the bytes match only for
# even n, known at launch (tilec refuses n = 9 before launching; the generated code has no check).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1])
def symbolic_view(M=8):
    N = T.dynamic("n")

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N // 2), "float32")):
        with T.Kernel(M, threads=32) as bx:
            V = T.view(A, (M, N // 2), dtype="float32")
            for j in T.serial(N // 2):
                B[bx, j] = V[bx, j]

    return main


def ref_program(A):
    return A.view(torch.float32)
