# Each block writes its row of W through an int16 view and reads the row back through a uint8 view
# of the same tensor (a store through one view must reach its sibling; the interpreters missed it
# until the next tile op before 2026-12-06).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def k(M=16, N=32):
    @T.prim_func
    def main(X: T.Tensor((M, N), "int16"), W: T.Tensor((M, N), "float16"), Out8: T.Tensor((M, 2 * N), "uint8")):
        with T.Kernel(M, threads=32) as bx:
            W16 = T.view(W, (M, N), dtype="int16")
            W8 = T.view(W, (M, 2 * N), dtype="uint8")
            Out8[bx, 0] = W8[bx, 0]
            for j in T.serial(N):
                W16[bx, j] = X[bx, j]
            for j in T.serial(2 * N):
                Out8[bx, j] = W8[bx, j]

    return main


def ref_program(X, W):
    return X.contiguous().view(torch.uint8)
