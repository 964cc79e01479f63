# Kernel functions with two `with T.Kernel` blocks (DESIGN.md §2b): TileLang launches the blocks
# of one prim_func in order on the same tensors, like the split and combine kernels of a
# split-KV decode. Launch 1 sums each row of A per column split into Partial; launch 2 reads
# launch 1's Partial and A again and writes every row minus its mean.
#   split_mean: no out_idx, so both written tensors are outputs (Partial is checked too);
#   split_mean_ws: out_idx=[-1], Partial is a workspace argument the caller passes (as
#   glse/Output_partial in TileLang's paged decode example): only Centered is checked.
#   tilec kernels tests/e2e/programs/sequential_kernels.py
#   tilec run tests/e2e/programs/sequential_kernels.py --interp=lowered
import tilelang
import tilelang.language as T


@tilelang.jit
def split_mean(M=64, N=256, block_M=16, splits=4, threads=128, dtype="float16"):
    part = N // splits

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Partial: T.Tensor((M, splits), "float32"),
             Centered: T.Tensor((M, N), dtype)):
        with T.Kernel(splits, T.ceildiv(M, block_M), threads=threads) as (bs, bm):
            tile = T.alloc_fragment((block_M, part), "float32")
            sums = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bm * block_M, bs * part], tile)
            T.reduce_sum(tile, sums, dim=1)
            for i in T.Parallel(block_M):
                if bm * block_M + i < M:
                    Partial[bm * block_M + i, bs] = sums[i]
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bm:
            p = T.alloc_fragment((block_M, splits), "float32")
            total = T.alloc_shared((block_M,), "float32")
            T.copy(Partial[bm * block_M, 0], p)
            T.reduce_sum(p, total, dim=1)
            for i, j in T.Parallel(block_M, N):
                if bm * block_M + i < M:
                    Centered[bm * block_M + i, j] = A[bm * block_M + i, j] - total[i] / N

    return main


def ref_program(A, splits):
    a = A.float()
    partial = a.reshape(a.shape[0], splits, a.shape[1] // splits).sum(-1)
    mean = partial.sum(-1, keepdim=True) / a.shape[1]
    return partial, (a - mean).half()


@tilelang.jit(out_idx=[-1])
def split_mean_ws(M=48, N=128, block_M=16, threads=64):
    part = N // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Partial: T.Tensor((M, 2), "float32"),
             Centered: T.Tensor((M, N), "float32")):
        with T.Kernel(2, T.ceildiv(M, block_M), threads=threads) as (bs, bm):
            tile = T.alloc_shared((block_M, part), "float32")
            sums = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bm * block_M, bs * part], tile)
            T.reduce_sum(tile, sums, dim=1)
            for i in T.Parallel(block_M):
                if bm * block_M + i < M:
                    Partial[bm * block_M + i, bs] = sums[i]
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bm:
            for i, j in T.Parallel(block_M, N):
                row = bm * block_M + i
                if row < M:
                    Centered[row, j] = A[row, j] - (Partial[row, 0] + Partial[row, 1]) / N

    return main


def ws_ref(A, Partial):
    return A - A.mean(-1, keepdim=True)
