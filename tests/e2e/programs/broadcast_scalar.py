# Normalise a vector by the sum of its magnitudes: T.reduce_abssum into a (1,) fragment, then
# `x[i] / s[0]` inside T.Parallel reads the scalar every thread holds (a broadcast of a fully
# replicated fragment). The plain sum of random-signed inputs can be near zero, which made the
# quotient ill-conditioned: rel-L2 1.3e-5 against float32's 1e-5 at one seed (helper-118).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def normalise(N=256, threads=128):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            x = T.alloc_fragment((N,), "float32")
            s = T.alloc_fragment((1,), "float32")
            T.copy(X, x)
            T.reduce_abssum(x, s)
            for i in T.Parallel(N):
                x[i] = x[i] / s[0]
            T.copy(x, Y)

    return main


def ref_program(X):
    return X / X.abs().sum()
