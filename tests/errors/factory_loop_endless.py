# An endless loop in a kernel factory's meta code (a `while` whose condition never changes) is
# reported at that loop, after a bounded number of steps -- not a compile that hangs the IDE
# (issue 14: found by fuzz_meta, 29 s of CPU under ASan before the step budget was 1M).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def halve(M=256, threads=128):
    steps = 0
    t = threads
    while t > 1:  # expect-error(col 11): compile-time evaluation exceeded 1000000 steps in this 'while' loop
        steps += 1

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, threads), threads=threads) as (bx,):
            for i in T.Parallel(threads):
                B[bx * threads + i] = A[bx * threads + i] * steps

    return main
