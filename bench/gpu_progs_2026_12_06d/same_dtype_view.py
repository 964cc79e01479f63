# A write through a view of the same dtype (another name on the tensor's storage) read back
# through a uint8 view of the same tensor: the bytes of X's halves.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def same_dtype_view(M=16, N=32):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float16"), A: T.Tensor((M, N), "float16"), Out8: T.Tensor((M, 2 * N), "uint8")):
        with T.Kernel(1, threads=64) as bx:
            Af = T.view(A, (M * N,))
            A8 = T.view(A, (M, 2 * N), dtype="uint8")
            Out8[0, 0] = A8[0, 0]
            X_s = T.alloc_shared((M, N), "float16")
            T.copy(X, X_s)
            for i, j in T.Parallel(M, N):
                Af[i * N + j] = X_s[i, j]
            T.sync_threads()
            T.copy(A8, Out8)

    return main


def ref_program(X, A):
    return X.contiguous().view(torch.uint8)
