# Kernels defined inside test functions, the way TileLang's own tests write them: each test
# defines its @tilelang.jit kernel, makes torch tensors and calls it. TileScope lists them as
# test_function.kernel (two tests here both name theirs `scale`); a kernel sees the simple
# assignments before its def (`factor` below), and its T.const sizes come from the tensors the
# test passes.
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


def ref_scale(X):
    return X * 3.0


def ref_half(X):
    return X * 0.5


def test_scale():
    factor = 3.0

    @tilelang.jit
    def scale(X, Y, block: int = 64):
        M, N = T.const("M N")
        X: T.Tensor[[M, N], T.float32]
        Y: T.Tensor[[M, N], T.float32]
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            tile = T.alloc_fragment((block, N), T.float32)
            T.copy(X[bx * block, 0], tile)
            for i, j in T.Parallel(block, N):
                tile[i, j] = tile[i, j] * factor
            T.copy(tile, Y[bx * block, 0])

    X = torch.randn(256, 32, device="cuda")
    Y = torch.empty(256, 32, device="cuda")
    scale(X, Y)
    torch.testing.assert_close(Y, ref_scale(X))


def test_scale_half():
    @tilelang.jit
    def scale(X, Y):
        N = T.const("N")
        X: T.Tensor[[N], T.float16]
        Y: T.Tensor[[N], T.float16]
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                if bx * 128 + i < N:
                    Y[bx * 128 + i] = X[bx * 128 + i] * T.float16(0.5)

    X = torch.randn(1000, dtype=torch.float16, device="cuda")
    Y = torch.empty(1000, dtype=torch.float16, device="cuda")
    scale(X, Y)
    torch.testing.assert_close(Y, ref_half(X))


if __name__ == "__main__":
    tilelang.testing.main()
