# Global <-> fragment copies and an element-wise global read at a column offset (vectorized
# global accesses, issue 10): a slice starting at column `off` is only as aligned as `off`, so
# the generated code must fall back to narrower or scalar accesses for it, while off = 0 with a
# row length that is a multiple of 8 gets 16-byte ones. N need not be a multiple of anything.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def vec_offset_copy(M=4, N=1000, off=3, dtype="float16", threads=128):
    @T.prim_func
    def main(X: T.Tensor((M, N + 16), dtype), W: T.Tensor((N + 16,), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(M, threads=threads) as (bx,):
            x = T.alloc_fragment((1, N), dtype)
            T.copy(X[bx, off], x)
            for i, j in T.Parallel(1, N):
                x[i, j] = x[i, j] * 2.0 + W[j + off]
            T.copy(x, Y[bx, 0])

    return main


def ref_program(X, W, off, N):
    return X[:, off:off + N] * 2.0 + W[off:off + N]
