# params: M=256 causal=false
import tilelang
import tilelang.language as T


# `--param causal=false` would bind the string 'false', which `if causal:` reads as true (found by
# a new-user trial: the causal kernel, silently). A parameter without a default is the worst case.
@tilelang.jit(out_idx=[-1])
def scale(M, causal, block_M=128):  # expect-error(col 14): causal = 'false' (from --param causal=false) is a string, not a boolean

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * (2.0 if causal else 3.0)

    return main
