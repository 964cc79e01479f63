# params: causal=yes
import tilelang
import tilelang.language as T


# A word for a parameter whose default is a boolean is a typo, not a truthy string.
@tilelang.jit(out_idx=[-1])
def scale(M=256, causal=False, block_M=128):  # expect-error(col 18): causal = 'yes' (from --param causal=yes) is a string, not a boolean; the default of 'causal' is False

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * (2.0 if causal else 3.0)

    return main
