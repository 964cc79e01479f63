# T.sqrt/T.floor/T.sin/... of a Python number fold as the float32 call TileLang makes of it: the
# number rounded to float32 first, the result too (helper-114). Folded in double, T.sqrt(1e40)
# was 1e20 (float32: sqrt(inf) = inf), T.floor(16777217.5) 16777217 (stored as 16777216; float32
# rounds the literal to 16777218), T.sin(1e300) -0.82 (float32: sin(inf) = NaN). T.sqrt(2.0) in a float64 store keeps float32's precision, as a float32 PrimExpr.
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def float32_math_fold(M=8):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M, 6), "float32"), D: T.Tensor((M,), "float64")):
        with T.Kernel(1, threads=8) as bx:
            for i in T.Parallel(M):
                B[i, 0] = A[i] * 0 + T.floor(16777217.5)
                B[i, 1] = A[i] * 0 + T.sqrt(1e40)
                B[i, 2] = A[i] * 0 + T.floor(1e38 * 10)
                B[i, 3] = A[i] * 0 + T.sin(1e300)
                B[i, 4] = A[i] * 0 + T.ceil(2.5)
                B[i, 5] = A[i] + T.exp2(0.5)
                D[i] = T.sqrt(2.0)

    return main


def ref_program(A):
    z = A * 0
    inf = torch.tensor(float("inf"))
    # exp2(0.5) as float32: 1.41421354 (the float32 rounding of sqrt(2)).
    s2 = torch.tensor(2.0, dtype=torch.float32).sqrt()
    B = torch.stack([z + 16777218.0, z + inf, z + inf, z + float("nan"), z + 3.0, A + s2], dim=1)
    return B, torch.zeros(A.shape[0], dtype=torch.float64) + s2.to(torch.float64)
