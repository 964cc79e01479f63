# A grid barrier (T.sync_grid) twice: once between two loops, once inside a T.Parallel loop
# (which the compiler splits there). Every block first doubles its slice of X into Y; after the
# first barrier each block reads the mirrored element of Y (written by another block), and after
# the second barrier it adds it to its own: Y[j] = 2 X[j] + 2 X[N - 1 - j].
import tilelang
import tilelang.language as T


@tilelang.jit
def mirror_sum(N=512, width=64, threads=128):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(N // width, threads=threads) as b:
            mirrored = T.alloc_fragment((width,), "float32")
            base = b * width
            for i in T.Parallel(width):
                Y[base + i] = X[base + i] * 2.0
            T.sync_grid()
            for i in T.Parallel(width):
                mirrored[i] = Y[N - 1 - base - i]
                T.sync_grid()
                Y[base + i] = Y[base + i] + mirrored[i]

    return main
