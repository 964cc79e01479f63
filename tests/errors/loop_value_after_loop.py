# A Python name bound inside a kernel loop to an expression of the loop variable, then read after
# the loop (found by fuzz_meta: the IR used 'i' outside its loop): the name is poisoned when the
# loop ends and its next use says why, with the fix (T.alloc_var before the loop).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def first_negative(M=12, N=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), F: T.Tensor((N,), "int32")):
        with T.Kernel(1, threads=N) as bx:
            tx = T.get_thread_binding()
            pos = M
            for i in T.serial(M):
                if X[i, tx] < 0:
                    pos = i
            F[tx] = pos  # expect-error(col 21): it holds an expression of loop variable 'i' of this loop, which does not exist after the loop

    return main
