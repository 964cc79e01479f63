# T.max / T.min of 8- and 16-bit integers (issue 14): the CUDA once called max()/min() on
# char/short operands, which NVRTC rejected as ambiguous.
import tilelang
import tilelang.language as T
import torch


def minmax(N=256, dtype="int8"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype), D: T.Tensor((N,), dtype)):
        with T.Kernel(2, threads=128) as bx:
            for i in T.Parallel(N // 2):
                C[bx * (N // 2) + i] = T.max(A[bx * (N // 2) + i], B[bx * (N // 2) + i])
                D[bx * (N // 2) + i] = T.min(A[bx * (N // 2) + i], B[bx * (N // 2) + i])
    return main


def ref_program(A, B):
    return torch.maximum(A, B), torch.minimum(A, B)
