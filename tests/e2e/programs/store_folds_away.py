# Every store of the kernel is provably out of bounds (B has 256 elements; the program writes
# B[256 + i] under an `if` on its input (always true here); unguarded, B[256 + i] and a constant B[256] are
# compile errors now), so bounds-guarded lowering folds the
# whole body away (found by fuzz_pipeline in CI: simplify-final left a null kernel body, an
# internal error). It compiles to an empty kernel and
# B keeps its initial contents, on both interpreters and on the GPU.
import tilelang
import tilelang.language as T


@tilelang.jit
def store_folds_away(M=256, block_M=128):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                if A[bx * block_M + i] > -1.0e30:
                    B[M + i] = A[bx * block_M + i] * 2.0

    return main
