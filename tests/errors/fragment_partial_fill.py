import tilelang
import tilelang.language as T


# Part of a fragment in T.clear / T.fill / a fragment-to-fragment T.copy: lowering filled or
# copied every register, so the part became the whole on the GPU while the tile interpreter did
# the part (helper-128). Now an error at the op.
@tilelang.jit
def k(M=64, N=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            C = T.alloc_fragment((M, N), "float32")
            H = T.alloc_fragment((M, N), "float16")
            T.copy(A, C)
            T.clear(C[0:32, :])  # expect-error(col 13): T.clear of part of fragment 'C' is not supported: TileScope fills a fragment whole
            # expect-hint: write the part with a T.Parallel loop over its indices
            T.fill(C[:, 0:8], 2.0)  # expect-error(col 13): T.fill of part of fragment 'C' is not supported: TileScope fills a fragment whole
            T.copy(C, H)
            T.copy(H, Out)

    return main
