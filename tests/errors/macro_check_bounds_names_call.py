import tilelang
import tilelang.language as T


# An error a later pass (check-bounds) reports at a @T.macro body's line names the call that
# expanded the body, like the front end's errors do (helper-133; Compile.cpp nameMacroCalls).
@tilelang.jit
def k(M=64, N=64):
    @T.macro
    def store_row(s, A, r):
        for i in T.Parallel(N):
            s[r + 70, i] = A[r, i]  # expect-error(col 13): index 70 is out of bounds for dimension 0 of 's' (shape (64, 64)) (in @T.macro 'store_row' called at line 20:9, from 'stage' at line 26:13)
            # expect-hint: valid indices are 0..63

    @T.macro
    def stage(s, A):
        for r in T.serial(2):
            if r == 5:
                T.copy(A, s)
        store_row(s, A, 0)

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float32")
            stage(s, A)
            T.copy(s, B)

    return main
