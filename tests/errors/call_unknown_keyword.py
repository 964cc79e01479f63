import tilelang
import tilelang.language as T


# The file's own call of the factory misspells a keyword: Python raises TypeError at that call,
# so it gives no values (before, block_M kept its default of 128 without a word).
@tilelang.jit
def scale(N, block_M=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block_M), threads=128) as bx:
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main


kernel = scale(1024, blockM=64)  # expect-error(col 22): 'scale' has no parameter 'blockM' (module level)
# expect-hint: did you mean 'block_M'?
