# Kernel factories defined inside test functions (TileLang's tests: `def test_x(): @tilelang.jit
# def k(N, ...): @T.prim_func ...; return main`, then `k(1000)`): each is test_x.k with its own
# parameters, N from the test's call, the block size from its default.
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


def ref_add(A):
    return A + 1.0


def ref_mul(A):
    return A * 2.0


def test_add():
    @tilelang.jit(out_idx=[-1])
    def add(N, block=128):
        @T.prim_func
        def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
            with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
                for i in T.Parallel(block):
                    if bx * block + i < N:
                        B[bx * block + i] = A[bx * block + i] + 1.0

        return main

    kernel = add(1000)
    a = torch.randn(1000, device="cuda")
    torch.testing.assert_close(kernel(a), ref_add(a))


def test_mul():
    @tilelang.jit(out_idx=[-1])
    def mul(N, block=64):
        @T.prim_func
        def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
            with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
                for i in T.Parallel(block):
                    if bx * block + i < N:
                        B[bx * block + i] = A[bx * block + i] * 2.0

        return main

    kernel = mul(512)
    a = torch.randn(512, device="cuda")
    torch.testing.assert_close(kernel(a), ref_mul(a))


if __name__ == "__main__":
    tilelang.testing.main()
