# `import tilelang.language as T` is missing: Python (and so TileLang) raises NameError at the
# first T.<name>, so TileScope reports it there instead of knowing T by convention.
import tilelang


@tilelang.jit(out_idx=[-1])
def double(M=256, N=256, block=128):
    @T.prim_func  # expect-error(col 6): name 'T' is not defined: the file uses T.prim_func
    def main(A: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), M, threads=128) as (bx, by):
            for j in T.Parallel(block):
                C[by, bx * block + j] = A[by, bx * block + j] * 2

    return main
