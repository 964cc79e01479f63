import tilelang
import tilelang.language as T


# An index every iteration of which lies outside the tensor: the lowering's guard turned each
# load into 0 and dropped each store without a word (helper-132 #1). A tile partly outside (a
# ragged edge) stays legal and guarded.
@tilelang.jit(out_idx=[1])
def k(M=256, N=64, block_M=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as by:
            for i, j in T.Parallel(block_M, N):
                B[by * block_M + i, j] = A[M + i, j] * 2.0  # expect-error(col 42): index i + 256 of tensor 'A' ranges over [256, 287], wholly outside dimension 0
                # expect-hint: valid indices are 0..255; adjust the index
            for i, j in T.Parallel(block_M, N):
                B[by * block_M + i + 8, j] = A[by * block_M + i, j]  # partly outside on the last block: guarded

    return main
