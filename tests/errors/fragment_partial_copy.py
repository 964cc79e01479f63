import tilelang
import tilelang.language as T


# Part of a fragment copied to part of another of the same layout: lowering copied every register (column 0 of H
# was overwritten on the GPU; the tile interpreter copied the part), helper-128. Now an error.
@tilelang.jit
def k(M=16, N=16):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=64) as _:
            C = T.alloc_fragment((M, N), "float32")
            H = T.alloc_fragment((M, N), "float32")
            T.copy(A, C)
            T.clear(H)
            T.copy(C[0:M, 1:N], H[0:M, 1:N])  # expect-error(col 13): T.copy between parts of fragments 'C' and 'H' is not supported: TileScope copies a fragment to a fragment whole
            # expect-hint: copy the part with a T.Parallel loop over its indices
            T.copy(H, Out)

    return main
