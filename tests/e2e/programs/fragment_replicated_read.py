# Fragments read inside T.Parallel at indices other than the loop variables, as real TileLang
# kernels do (sparse attention's mask[j] over a (heads, keys) tile, the small dense products of
# mHC written with a serial loop inside T.Parallel): such fragments are held whole by every
# thread (replicated), so any thread can read any element. `keep` is written by a 1-D T.Parallel
# and read as a column vector keep[j] in a nest over (i, j); `a` comes from a T.copy and is read
# transposed (a[k, i], k a serial loop inside the nest); `w` is read reversed, w[N - 1 - j].
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3, 4])
def replicated(M=32, N=40, H=6, threads=128):
    @T.prim_func
    def main(
        X: T.Tensor((M, N), "float32"),
        A: T.Tensor((H, M), "float32"),
        W: T.Tensor((N,), "float32"),
        Masked: T.Tensor((M, N), "float32"),
        Mixed: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            x = T.alloc_fragment((M, N), "float32")
            keep = T.alloc_fragment((N,), "bool")
            a = T.alloc_fragment((H, M), "float32")
            w = T.alloc_fragment((N,), "float32")
            y = T.alloc_fragment((M, N), "float32")
            T.copy(X, x)
            T.copy(A, a)
            T.copy(W, w)
            for j in T.Parallel(N):
                keep[j] = W[j] > 0
            for i, j in T.Parallel(M, N):
                y[i, j] = T.if_then_else(keep[j], x[i, j], 0)
            T.copy(y, Masked)
            for i, j in T.Parallel(M, N):
                y[i, j] = x[i, j] * w[N - 1 - j]
                for k in T.serial(H):
                    y[i, j] += a[k, i] * w[j]
            T.copy(y, Mixed)

    return main


def ref_program(X, A, W):
    masked = torch.where(W > 0, X, 0 * X)
    mixed = X * W.flip(0) + A.sum(dim=0).unsqueeze(1) * W
    return masked, mixed
