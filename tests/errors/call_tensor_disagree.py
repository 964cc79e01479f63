import tilelang
import tilelang.language as T
import torch


# An eager kernel's sizes come from the tensors its call passes; here they disagree on N, and
# the second test passes a 2-D tensor for a 1-D parameter. TileLang's eager call rejects both at
# run time (before, the first tensor's N was compiled and the others were not looked at).
@tilelang.jit
def add(X, Y, Z):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    Z: T.Tensor[[N, 4], T.float32]
    with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
        for i in T.Parallel(128):
            if bx * 128 + i < N:
                Z[bx * 128 + i, 0] = X[bx * 128 + i] + Y[bx * 128 + i]


def test_add():
    X = torch.randn(32, device="cuda")
    Y = torch.randn(64, device="cuda")
    Z = torch.empty(32, 8, device="cuda")
    add(X,
        Y,  # expect-error(col 9): this call gives 'Y' a tensor whose size N = 64 disagrees with N = 32 from 'X'
        Z)  # expect-error(col 9): 'Z' is declared with extent 4 in dimension 1, but 'Z' (made at line 24) has extent 8


if __name__ == "__main__":
    test_add()
