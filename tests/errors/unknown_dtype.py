import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            buf = T.alloc_fragment((block_M,), "flaot32")  # expect-error: unknown dtype 'flaot32'
            T.copy(A[bx * block_M], buf)
            T.copy(buf, B[bx * block_M])

    return main
