# A thread count far above the limit is refused by the front end at once: the passes would lay
# out fragments over every thread first (threads=2**31-1 kept infer-layouts busy for 22 s before
# the launch check refused it; a fuzz_pipeline finding).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 256), "float16"), B: T.Tensor((64, 256), "float16")):
    with T.Kernel(64, 2, threads=2**31 - 1) as (by, bx):  # expect-error(col 10): T.Kernel: threads=2147483647 is outside 1..1024 threads per block
        for j in T.Parallel(128):
            B[by, bx * 128 + j] = A[by, bx * 128 + j] * 2.0
