# A tensor of more than 2^31-1 elements (65536 x 65536 float16 = 8 GiB at the large size):
# its flat offsets need 64 bits, so lower-to-threads computes them in int64 for such tensors
# only (the generated CUDA widens the row index before the multiply). Small sizes run the same
# kernel on the interpreters.
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale_rows(M=64, N=256, block=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(M, T.ceildiv(N, block), threads=128) as (by, bx):
            for j in T.Parallel(block):
                B[by, bx * block + j] = A[by, bx * block + j] * 2.0 + by % 7

    return main


def ref_program(A):
    M = A.shape[0]
    return A * 2.0 + (torch.arange(M).reshape(M, 1) % 7)
