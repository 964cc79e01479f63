# How often a scalar T.atomic_add runs (issue 14). In TileLang a scalar atomic is a per-thread
# AtomicAdd call: at kernel top level every thread of the block issues it (threads times), inside
# T.Parallel each iteration issues it once. The tile interpreter once added once per block while
# the lowered code and the GPU added once per thread.
import tilelang
import tilelang.language as T


def count(N=256, threads=128):
    half = N // 2

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), S: T.Tensor((2,), "float32")):
        with T.Kernel(2, threads=threads) as bx:
            T.atomic_add(S[bx], 1.0)
            for i in T.Parallel(half):
                T.atomic_add(S[bx], A[bx * half + i])
    return main
