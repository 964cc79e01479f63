# C's conversions and promotions the interpreters and the generated CUDA must share (helper-114):
# T.cast(-1, "uint32") is 4294967295 (it stayed -1: the interpreters and the CUDA read it apart);
# T.max/T.min of int8/int16 values computed in int (ts::max<signed char> cut 200 to -56); uint8
# (U - 200) // 3 floors in int (C's / truncated); an int8 and a uint8 meet in int, whichever side
# (the left operand's type decided); T.floor of an integer is the integer; a float32 literal past
# float32's range is inf (NVRTC rejected 1e40f).
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def c_conversions(M=64):
    @T.prim_func
    def main(A: T.Tensor((M,), "int8"), U: T.Tensor((M,), "uint8"), I: T.Tensor((M,), "int32"),
             X: T.Tensor((M,), "float32"), B: T.Tensor((M, 7), "int64"), F: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(M):
                B[i, 0] = T.cast(T.cast(-1, "uint32"), "int64")
                B[i, 1] = T.cast(T.max(A[i] + 100, 0), "int64")
                B[i, 2] = T.cast((U[i] - 200) // 3, "int64")
                B[i, 3] = T.cast(T.max(A[i], U[i]), "int64")
                B[i, 4] = T.cast(T.max(U[i], A[i]), "int64")
                B[i, 5] = T.cast(A[i] + U[i], "int64")
                B[i, 6] = T.cast(T.floor(I[i] % 1000 * 16 + 1), "int64")
                F[i] = T.min(T.abs(X[i]) * 1e40 + 1e40, 1.0)

    return main


def ref_program(A, U, I, X):
    M = A.shape[0]
    a, u, ii = A.to(torch.int64), U.to(torch.int64), I.to(torch.int64)
    ints = torch.stack([torch.full((M,), 4294967295, dtype=torch.int64), torch.maximum(a + 100, torch.tensor(0)),
                        torch.div(u - 200, 3, rounding_mode="floor"), torch.maximum(a, u), torch.maximum(u, a),
                        a + u, ii % 1000 * 16 + 1], dim=1)
    return ints, torch.minimum(X.abs() * 1e40 + 1e40, torch.tensor(1.0))
