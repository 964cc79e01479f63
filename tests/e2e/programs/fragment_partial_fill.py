# T.fill / T.clear of part of a fragment (FillOp.cpp): each thread writes the registers whose
# element (the layout's inverse) lies in the region -- on a block fragment, on a gemm accumulator
# (mma.sync on sm_80, wgmma's on sm_90a), with a region that moves with a loop variable.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def partial_fill(M=64, N=64, K=32, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((2, M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            a_s = T.alloc_shared((M, K), "float16")
            b_s = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            f = T.alloc_fragment((M, N), "float32")
            T.copy(A, a_s)
            T.copy(B, b_s)
            T.clear(acc)
            T.gemm(a_s, b_s, acc)
            T.clear(acc[0:16, :])
            for k in T.serial(2):
                T.fill(acc[:, 40 + k * 8:48 + k * 8], k + 0.5)
            T.copy(acc, C[0, :, :])
            for i, j in T.Parallel(M, N):
                f[i, j] = i * 100 + j
            T.fill(f[8:24, 3:5], -1)
            T.copy(f, C[1, :, :])

    return main


def ref_program(A, B):
    import torch
    M, N = A.shape[0], B.shape[1]
    acc = A.double() @ B.double()
    acc[0:16, :] = 0
    for k in range(2):
        acc[:, 40 + k * 8:48 + k * 8] = k + 0.5
    f = (torch.arange(M).reshape(M, 1) * 100 + torch.arange(N).reshape(1, N)).double()
    f[8:24, 3:5] = -1
    return torch.stack([acc, f])
