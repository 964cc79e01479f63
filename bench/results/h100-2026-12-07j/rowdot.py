import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def rowdot(M=16, N=24, threads=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), W: T.Tensor((N,), "float32"), Y: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            x = T.alloc_fragment((M, N), "float32")
            w = T.alloc_shared((N,), "float32")
            y = T.alloc_fragment((M,), "float32")
            T.copy(X[0, 0], x)
            T.copy(W[0], w)
            for i in T.Parallel(M):
                y[i] = 0.0
                for k in T.serial(N):
                    y[i] += x[i, k] * w[k]
            T.copy(y, Y[0])

    return main
