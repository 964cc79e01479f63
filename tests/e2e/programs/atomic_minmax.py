# Column-block maximum and minimum with tile atomics: block b loads rows [b*bm, (b+1)*bm) of A
# into a fragment and folds it into Mx / Mn (bm x N) with T.atomic_max / T.atomic_min, so that
# Mx[i, j] = max over b of A[b*bm + i, j] (Mx starts at -inf, Mn at +inf). `mode` "region" uses
# whole-fragment atomics, "parallel" one atomic per element inside T.Parallel.
import tilelang
import tilelang.language as T


@tilelang.jit
def minmax(M=256, N=64, block_M=32, dtype="float32", mode="region"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Mx: T.Tensor((block_M, N), dtype), Mn: T.Tensor((block_M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            tile = T.alloc_fragment((block_M, N), dtype)
            T.copy(A[bx * block_M, 0], tile)
            if mode == "region":
                T.atomic_max(Mx, tile)
                T.atomic_min(Mn[0:block_M, 0:N], tile)
            else:
                for i, j in T.Parallel(block_M, N):
                    T.atomic_max(Mx[i, j], tile[i, j])
                    T.atomic_min(Mn[i, j], tile[i, j])

    return main
