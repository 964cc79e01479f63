# A Python name bound inside a loop to an element indexed by the loop variable (`first = S[i]`)
# and read after the loop, where `i` no longer exists. A fuzzed grouped-GEMM file (fuzz_meta,
# 2026-12-04) reached infer-layouts' IR check with it ("variable 'i' is used outside its scope",
# an internal error); a name bound to an expression of `i` was already a diagnostic.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def first_tile(G=2, N=64):

    @T.prim_func
    def main(S: T.Tensor((G,), "int32"), O: T.Tensor((N,), "int32")):
        with T.Kernel(1, threads=32) as (bx,):
            first = 0
            for i in T.serial(G):
                if bx >= S[i]:
                    first = S[i]
            O[bx] = first  # expect-error(col 21): 'first' could not be evaluated (line 16): it holds an expression of loop variable 'i' of this loop, which does not exist after the loop
            # expect-hint: keep a value that outlives the loop in a local variable: first = T.alloc_var(dtype) before the loop, then assign it inside

    return main
