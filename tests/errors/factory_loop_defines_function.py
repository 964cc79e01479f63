# An endless `while` in a kernel factory whose body defines a decorated function (found by
# fuzz_meta, issue 14): the step budget charges work, not statements -- a `def` with its
# decorator costs several steps -- so this ends at the loop like an endless loop of
# assignments, within the fuzzers' 2 s under ASan (it took 3.2 s of CPU when a `def` was one
# step). The inner factory is never called: only its definition repeats.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def halve(M=256, threads=128):
    steps = 0
    t = threads
    while t > 1:  # expect-error(col 11): compile-time evaluation exceeded 1000000 steps in this 'while' loop
        @tilelang.jit(out_idx=[-1])
        def inner(M=256, threads=128):
            n = 0
            while threads > 1:
                n += 1

            @T.prim_func
            def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
                with T.Kernel(T.ceildiv(M, threads), threads=threads) as (bx,):
                    for i in T.Parallel(threads):
                        B[bx * threads + i] = A[bx * threads + i] * n

            return main

        steps += 1

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, threads), threads=threads) as (bx,):
            for i in T.Parallel(threads):
                B[bx * threads + i] = A[bx * threads + i] * steps

    return main
