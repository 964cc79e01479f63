# Device random numbers drawn in T.Parallel by one-thread blocks (the shape of TileLang's rand
# example): block b's generator starts at output offset b * 128 of subsequence 0, so out[i] is
# output i of the seed's Philox stream, whatever the block count.
import tilelang
import tilelang.language as T


@tilelang.jit
def rng_parallel(M=300, seed=7):
    per_block = 128
    out = T.empty((M,), "uint32")
    with T.Kernel(T.ceildiv(M, per_block), threads=1) as bx:
        T.rng_init(seed, 0, bx * per_block)
        for j in T.Parallel(per_block):
            if bx * per_block + j < M:
                out[bx * per_block + j] = T.rng_rand()
    return out
