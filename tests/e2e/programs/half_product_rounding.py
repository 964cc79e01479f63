# acc += a * b with float16 a, b and a float32 acc: the product is a float16 value (TileLang's
# typing, and what the generated CUDA computes), rounded to float16 before the float32 add. The
# interpreters once kept it exact, and disagreed with the GPU by ~2e-4 relative.
import tilelang
import tilelang.language as T


def half_product_rowsum(M=64, N=128, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16"), D: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            a = T.alloc_fragment((M, N), "float16")
            b = T.alloc_fragment((M, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            d = T.alloc_fragment((M,), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.clear(acc)
            for i, j in T.Parallel(M, N):
                acc[i, j] += a[i, j] * b[i, j]
            T.reduce_sum(acc, d, dim=1)
            T.copy(d, D)
    return main


def ref_program(A, B):
    # float64 arithmetic elsewhere; the explicit round trip is the float16 product the kernel adds.
    return (A.double() * B.double()).half().double().sum(1)
