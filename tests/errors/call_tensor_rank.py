import tilelang
import tilelang.language as T
import torch


# A 2-D tensor passed for a 1-D parameter of an eager kernel.
@tilelang.jit
def double(X, Y):
    N = T.const("N")
    X: T.Tensor[[N], T.float32]
    Y: T.Tensor[[N], T.float32]
    with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
        for i in T.Parallel(128):
            if bx * 128 + i < N:
                Y[bx * 128 + i] = X[bx * 128 + i] * 2.0


def main():
    X = torch.randn(16, 64, device="cuda")
    Y = torch.empty(1024, device="cuda")
    double(X, Y)  # expect-error(col 12): 'X' is declared with 1 dimension but this call passes a tensor with 2 ('X', made at line 19)


if __name__ == "__main__":
    main()
