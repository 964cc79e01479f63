# A view of a kernel tensor with another dtype (T.view(A, shape, dtype)) is the tensor's bytes read
# as that dtype, as torch's Tensor.view(dtype): element i of the view at byte i * size,
# little-endian. Read through a wider and a narrower view, and written through one:
#   Out32 = A's float16 pairs read as float32: word k of row i = halves 2k (low), 2k + 1 (high)
#   Out8  = A's bytes (a uint8 view)
#   W     = its int16 view written with X, then W read back as float16 into OutW: X's bits as halves
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3, 4, 5])
def global_view_dtype(M=64, N=64, threads=128):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float16"),
        X: T.Tensor((M, N), "int16"),
        W: T.Tensor((M, N), "float16"),
        Out32: T.Tensor((M, N // 2), "float32"),
        Out8: T.Tensor((M, 2 * N), "uint8"),
        OutW: T.Tensor((M, N), "float16"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            A32 = T.view(A, (M, N // 2), dtype="float32")
            A8 = T.view(A, (M, 2 * N), dtype="uint8")
            W16 = T.view(W, (M * N,), dtype="int16")
            T.copy(A32, Out32)
            for i, j in T.Parallel(M, 2 * N):
                Out8[i, j] = A8[i, j]
            for i, j in T.Parallel(M, N):
                W16[i * N + j] = X[i, j]
            T.sync_threads()
            T.copy(W, OutW)

    return main


def ref_program(A, X, W):
    return A.view(dtype=torch.float32), A.view(torch.uint8), X.view(torch.float16)

