# Two kernels defined inside one test, the second reading what the first wrote: a chain of
# kernels whose names have a dot (`test_affine.double`). `tilec run` with
# `--chain test_affine.double,test_affine.shift --bind test_affine.shift.A=test_affine.double.Y`
# runs them in order; nested_chain_ref.py::chain_ref is the float64 reference.
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


def test_affine():
    @tilelang.jit
    def double(X, Y):
        N = T.const("N")
        X: T.Tensor[[N], T.float32]
        Y: T.Tensor[[N], T.float32]
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                if bx * 128 + i < N:
                    Y[bx * 128 + i] = X[bx * 128 + i] * 2.0

    @tilelang.jit
    def shift(A, B):
        N = T.const("N")
        A: T.Tensor[[N], T.float32]
        B: T.Tensor[[N], T.float32]
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                if bx * 128 + i < N:
                    B[bx * 128 + i] = A[bx * 128 + i] + 1.0

    X = torch.randn(1000, device="cuda")
    Y = torch.empty(1000, device="cuda")
    Z = torch.empty(1000, device="cuda")
    double(X, Y)
    shift(Y, Z)
    torch.testing.assert_close(Z, X * 2.0 + 1.0)


if __name__ == "__main__":
    tilelang.testing.main()
