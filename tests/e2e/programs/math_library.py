# TVM's math library as TileLang re-exports it (ir/MathLib.h): trigonometric and hyperbolic
# functions, erf, exp10/log10/log1p/expm1, pow/fmod/atan2/hypot/copysign, T.round in both modes,
# T.trunc, the fast-math spellings (T.__exp ...) and the IEEE operations with a rounding mode.
# MathLibraryE2ETest checks both interpreters against ref_program (float64) and the directed
# roundings against values derived by hand.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def math_library(M=256, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype), C: T.Tensor((10, M), dtype)):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                a = A[bx * 128 + i]
                b = B[bx * 128 + i]
                C[0, bx * 128 + i] = T.erf(a) + T.tan(a * 0.5) + T.atan(b) + T.asin(a * 0.25) + T.acos(b * 0.25)
                C[1, bx * 128 + i] = T.pow(T.abs(a) + 0.5, b) + T.fmod(a * 7.0, b + 2.0)
                C[2, bx * 128 + i] = T.round(a * 4.0) * 100.0 + T.round(a * 4.0, "ties-away-from-zero") * 10.0 + T.trunc(a * 3.0)
                C[3, bx * 128 + i] = T.__exp(a) + T.__log(T.abs(a) + 1.0) + T.__sin(a) + T.__cos(b) + T.atan2(a, b + 2.0)
                C[4, bx * 128 + i] = T.ieee_add(a, b, "rz") + T.ieee_mul(a, b, rounding_mode="ru") + T.ieee_sub(a, b, "rd")
                C[5, bx * 128 + i] = T.ieee_fmaf(a, b, a, "rd") - T.ieee_fdiv(a, b + 3.0, "rn")
                C[6, bx * 128 + i] = T.ieee_fsqrt(T.abs(a), "ru") + T.ieee_frcp(b + 3.0, "rz") + T.ieee_frsqrt(T.cast(T.abs(b) + 1.0, "float32"))
                C[7, bx * 128 + i] = T.log10(T.abs(a) + 1.0) + T.exp10(a) + T.sinh(a) + T.cosh(b) + T.hypot(a, b) + T.copysign(1.0, a)
                C[8, bx * 128 + i] = T.log1p(T.abs(a)) + T.expm1(b) + T.asinh(a) + T.acosh(T.abs(b) + 1.0) + T.atanh(a * 0.5)
                C[9, bx * 128 + i] = T.__exp10(a) + T.__log2(T.abs(a) + 1.0) + T.__log10(T.abs(b) + 1.0) + T.__tan(a * 0.5)

    return main


def ref_program(A, B):
    import torch
    a, b = A.double(), B.double()
    rows = [
        torch.erf(a) + torch.tan(a * 0.5) + torch.atan(b) + torch.asin(a * 0.25) + torch.acos(b * 0.25),
        torch.pow(a.abs() + 0.5, b) + torch.fmod(a * 7.0, b + 2.0),
        torch.round(a * 4.0) * 100.0 + torch.trunc(a * 4.0 + torch.sign(a) * 0.5) * 10.0 + torch.trunc(a * 3.0),
        torch.exp(a) + torch.log(a.abs() + 1.0) + torch.sin(a) + torch.cos(b) + torch.atan2(a, b + 2.0),
        (a + b) + a * b + (a - b),
        (a * b + a) - a / (b + 3.0),
        a.abs().sqrt() + 1.0 / (b + 3.0) + 1.0 / (b.abs() + 1.0).sqrt(),
        torch.log10(a.abs() + 1.0) + torch.pow(10.0, a) + torch.sinh(a) + torch.cosh(b) + torch.hypot(a, b) + torch.copysign(torch.ones_like(a), a),
        torch.log1p(a.abs()) + torch.expm1(b) + torch.asinh(a) + torch.acosh(b.abs() + 1.0) + torch.atanh(a * 0.5),
        torch.pow(10.0, a) + torch.log2(a.abs() + 1.0) + torch.log10(b.abs() + 1.0) + torch.tan(a * 0.5),
    ]
    return torch.stack(rows)


# The IEEE operations in each rounding mode on operands whose results are known exactly: row r
# is mode ("rn", "rz", "ru", "rd")[r]; columns: 1 + 2^-30, 1 / 3, sqrt(2), -1 - 2^-30 (X = [1,
# 2^-30, 3, 2]). MathLibraryE2ETest holds the float32 values derived by hand.
@tilelang.jit(out_idx=[1])
def ieee_modes(dtype="float32"):
    @T.macro
    def row(X, Y, r, mode):
        for j in T.Parallel(4):
            Y[r, j] = T.if_then_else(
                j == 0, T.ieee_add(X[0], X[1], mode),
                T.if_then_else(j == 1, T.ieee_frcp(X[2], mode),
                               T.if_then_else(j == 2, T.ieee_fsqrt(X[3], mode), T.ieee_sub(-X[0], X[1], mode))))

    @T.prim_func
    def main(X: T.Tensor((4,), dtype), Y: T.Tensor((4, 4), dtype)):
        with T.Kernel(1, threads=32) as bx:
            row(X, Y, 0, "rn")
            row(X, Y, 1, "rz")
            row(X, Y, 2, "ru")
            row(X, Y, 3, "rd")

    return main
