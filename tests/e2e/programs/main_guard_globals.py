# A factory that reads module globals only the script's `if __name__ == "__main__":` block
# assigns, as real TileLang examples do when run as scripts: `H` (a plain value from a tuple
# assignment) scales the output, and `counts` (a torch tensor there: a run-time value) is only
# tested for `is not None`, which picks the `+ 1` branch. TileScope binds them because nothing
# else in the file defines them.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def scale_rows(M=48, N=40, block_M=16):
    use_counts = counts is not None
    factor = H * 2

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=64) as bx:
            for i, j in T.Parallel(block_M, N):
                if use_counts:
                    B[bx * block_M + i, j] = A[bx * block_M + i, j] * factor + 1.0
                else:
                    B[bx * block_M + i, j] = A[bx * block_M + i, j] * factor

    return main


def ref_program(A):
    return A * 6.0 + 1.0


if __name__ == "__main__":
    B_, H, W = 1, 3, 4
    counts = torch.randint(1, 4, (8,))
    kernel = scale_rows()
