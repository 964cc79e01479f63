# Copies of part of a fragment (flash decoding writes acc_o[:valid_block_H, :]): the first 40 rows
# of a gemm accumulator to a 40-row output, and a 16 x 32 global tile into rows 8..23, columns
# 16..47 of a zero-filled block fragment.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3, 4])
def subregions(valid=40):
    @T.prim_func
    def main(
        A: T.Tensor((64, 32), "float16"),
        B: T.Tensor((32, 64), "float16"),
        P: T.Tensor((16, 32), "float32"),
        Top: T.Tensor((valid, 64), "float32"),
        Placed: T.Tensor((64, 64), "float32"),
    ):
        with T.Kernel(1, threads=128) as (bx,):
            a_s = T.alloc_shared((64, 32), "float16")
            b_s = T.alloc_shared((32, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            x = T.alloc_fragment((64, 64), "float32")
            T.copy(A, a_s)
            T.copy(B, b_s)
            T.clear(acc)
            T.gemm(a_s, b_s, acc)
            T.copy(acc[:valid, :], Top)
            T.fill(x, 0)
            T.copy(P, x[8:24, 16:48])
            T.copy(x, Placed)

    return main


def ref_program(A, B, P):
    top = (A.float() @ B.float())[0:40, :]
    placed = torch.zeros(64, 64)
    placed[8:24, 16:48] = P
    return top, placed
