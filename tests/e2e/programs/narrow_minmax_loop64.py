# Found by a fresh-user trial (helper-113), each right on the interpreters and wrong or rejected in
# the generated CUDA: T.max/T.min of int8/uint8/int16/uint32 values beside a literal (NVRTC: no
# ts::max(const signed char, int)); a serial loop from 2**40 (its variable was int32, so k // -7 was
# int32 arithmetic); T.floor/ceil/sin/cos (the front end did not know them).
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def narrow_minmax_loop64(M=64):
    @T.prim_func
    def main(A: T.Tensor((M,), "int8"), U: T.Tensor((M,), "uint8"), S: T.Tensor((M,), "int16"),
             W: T.Tensor((M,), "uint32"), X: T.Tensor((M,), "float32"),
             B: T.Tensor((M, 5), "int64"), F: T.Tensor((M, 4), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(M):
                B[i, 0] = T.cast(T.max(A[i], 1), "int64")
                B[i, 1] = T.cast(T.min(U[i], 7), "int64")
                B[i, 2] = T.cast(T.max(S[i], -3), "int64")
                B[i, 3] = T.cast(T.min(W[i], 5), "int64")
                acc = T.alloc_var("int64")
                acc = 0
                for k in T.serial(1099511627776, 1099511627780):
                    acc += k // -7 + i
                B[i, 4] = acc
                F[i, 0] = T.floor(X[i])
                F[i, 1] = T.ceil(X[i])
                F[i, 2] = T.sin(X[i])
                F[i, 3] = T.cos(X[i])

    return main


def ref_program(A, U, S, W, X):
    M = A.shape[0]
    i = torch.arange(M, dtype=torch.int64)
    loop = (1099511627776 // -7 + 1099511627777 // -7 + 1099511627778 // -7 + 1099511627779 // -7) + 4 * i
    ints = torch.stack([torch.maximum(A, torch.tensor(1)), torch.minimum(U, torch.tensor(7)),
                        torch.maximum(S, torch.tensor(-3)), torch.minimum(W, torch.tensor(5)), loop], dim=1)
    floats = torch.stack([torch.floor(X), torch.ceil(X), torch.sin(X), torch.cos(X)], dim=1)
    return ints, floats
