# An endless module-level loop whose body defines a @T.prim_func (found by fuzz_pipeline, issue
# 14) is reported at the loop after a bounded amount of work -- a `def` and its decorator are
# charged as several steps -- within the fuzzers' 2 s under ASan (it took 3 s of CPU when a
# `def` was one step), and not as a later error of the kernel that reads BM.
import tilelang
import tilelang.language as T

BM = 0
while True:  # expect-error(col 7): compile-time evaluation exceeded 1000000 steps in this 'while' loop
    @T.prim_func
    def main(A: T.Tensor((256,), "float32"), B: T.Tensor((256,), "float32")):
        with T.Kernel(T.ceildiv(256, BM), threads=128) as (bx,):
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i] * 2.0

    BM += 1


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, BM), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main
