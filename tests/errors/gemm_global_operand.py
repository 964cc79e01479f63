# T.gemm straight from global memory without staging through shared memory.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        c = T.alloc_fragment((64, 64), "float32")
        T.clear(c)
        T.gemm(A, B, c)  # expect-error(col 9): T.gemm: operand 'B' is in global memory; this target reads A and B from shared memory or fragments
        T.copy(c, C)
