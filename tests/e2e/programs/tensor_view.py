# Views of a kernel tensor's memory with another shape, as TileLang's convolution examples use
# them (kernel_flat = T.Tensor((KH * KW * C, F), dtype, kernel.data)): a 3-D input read as a
# 2-D matrix through T.Tensor(shape, dtype, X.data), a 3-D output written through
# T.reshape(Y, shape), tiles copied at block offsets (the last row tile partial).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def scale_flat(B=3, R=5, C=64, block_M=32, block_N=32, threads=128):
    @T.prim_func
    def main(X: T.Tensor((B, R, C), "float32"), Y: T.Tensor((B, R, C), "float32")):
        with T.Kernel(T.ceildiv(C, block_N), T.ceildiv(B * R, block_M), threads=threads) as (bx, by):
            x_flat = T.Tensor((B * R, C), "float32", X.data)
            y_flat = T.reshape(Y, (B * R, C))
            s = T.alloc_shared((block_M, block_N), "float32")
            f = T.alloc_fragment((block_M, block_N), "float32")
            T.copy(x_flat[by * block_M, bx * block_N], s)
            T.copy(s, f)
            for i, j in T.Parallel(block_M, block_N):
                f[i, j] = f[i, j] * 2.0 + 1.0
            T.copy(f, y_flat[by * block_M, bx * block_N])

    return main


def ref_program(X):
    return X * 2.0 + 1.0
