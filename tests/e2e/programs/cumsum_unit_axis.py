# Chunked inclusive scan of a (1, block) shared tile along dim=1 (the axis after a unit axis), as
# chunk-local cumsum kernels write it; `reverse` scans from the end. The unit axis must not shift
# the scanned axis (it once did: the scan vanished and the tile was copied unchanged).
import tilelang
import tilelang.language as T


def cumsum_rows(N=256, block=64, reverse=False, threads=128):
    @T.prim_func
    def main(G: T.Tensor((N,), "float32"), Out: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=threads) as (bx,):
            S = T.alloc_shared((1, block), "float32")
            for j in T.Parallel(block):
                S[0, j] = G[bx * block + j]
            T.cumsum(S, dim=1, reverse=reverse)
            for j in T.Parallel(block):
                Out[bx * block + j] = S[0, j]
    return main


def ref_program(G, block=64, reverse=False):
    chunks = G.reshape(-1, block)
    if reverse:
        return chunks.flip(1).cumsum(1).flip(1).reshape(-1)
    return chunks.cumsum(1).reshape(-1)
