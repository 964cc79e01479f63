# T.Pipelined over tiles that arrive as bytes: each iteration copies int16 bit patterns into an
# int16 view of a float16 tile and reads the tile by its own name (fresh-user helper-103: the
# pipeline gave the view stages and left the tile on the first stage's bytes, so odd iterations
# read stale data on both targets). The copy must stay synchronous, with a warning naming why.
#   Out[i, j] = sum_k (k + 1) * half(Bits[i, k * N + j])
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def pipelined_copy_into_view(M=64, N=64, K=3, num_stages=2, threads=128):
    @T.prim_func
    def main(Bits: T.Tensor((M, N * K), "int16"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            tile = T.alloc_shared((M, N), "float16")
            bits = T.view(tile, (M, N), dtype="int16")
            acc = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            for k in T.Pipelined(K, num_stages=num_stages):
                T.copy(Bits[0:M, k * N:(k + 1) * N], bits)
                for i, j in T.Parallel(M, N):
                    acc[i, j] += T.cast(tile[i, j], "float32") * (k + 1)
            T.copy(acc, Out)

    return main
