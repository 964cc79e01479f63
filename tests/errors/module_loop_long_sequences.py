# An endless loop whose statements each touch a long list (a 20,000-element repetition, a
# linear search of it) is work in proportion to the list's length: the step budget charges
# it (issue 14), so the loop is reported after a bounded amount of work instead of running
# for minutes on one step per statement.
import tilelang
import tilelang.language as T

hits = 0
while True:  # expect-error(col 7): compile-time evaluation exceeded 1000000 steps in this 'while' loop
    table = [0] * 20000
    hits += table.count(0)


@tilelang.jit(out_idx=[-1])
def scale(M=256):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i in T.Parallel(M):
                B[i] = A[i] * 2.0

    return main
