# params: M=65536 N=65536
# A tensor of more than 2^31-1 elements gets 64-bit offsets, but one index is still an int: a
# single dimension that long is an error.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, N=256, block=128):

    @T.prim_func
    def main(A: T.Tensor((M * N,), "float16"), B: T.Tensor((M * N,), "float16")):  # expect-error(col 14): has a dimension of 4294967296 elements, more than 2^31-1
        with T.Kernel(T.ceildiv(M * N, block), threads=128) as bx:
            for j in T.Parallel(block):
                B[bx * block + j] = A[bx * block + j] * 2.0

    return main
