import tilelang
import tilelang.language as T


# T.atomic_add into a fragment or a T.alloc_var: registers belong to one thread. NVRTC rejected
# the fragment form as a compiler bug ("identifier undefined") while the tile interpreter ran it
# (helper-130 #3); the local form compiled to an atomic on per-thread memory.
@tilelang.jit
def k(M=16, N=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=128) as _:
            x = T.alloc_fragment((M, N), "float32")
            s = T.alloc_fragment((M,), "float32")
            acc = T.alloc_local((1,), "float32")
            T.copy(X, x)
            T.clear(s)
            for i, j in T.Parallel(M, N):
                T.atomic_add(s[i], x[i, j])  # expect-error(col 17): T.atomic_add into 's', a fragment buffer
                # expect-hint: reduce a fragment with T.reduce_sum / T.reduce_max
            T.atomic_add(acc[0], x[0, 0])  # expect-error(col 13): T.atomic_add into 'acc', a local buffer
            T.copy(s, Y)

    return main
