# A T.* name TileLang has and TileScope does not (its testing/python uses T.warp_reduce_sum): said
# so, not "did you mean 'T.reduce_sum'?" (a different op).
import tilelang.language as T


@T.prim_func
def k(A: T.Tensor((32,), "float32")):
    with T.Kernel(1, threads=32):
        A[0] = T.warp_reduce_sum(A[0])  # expect-error(col 16): T.warp_reduce_sum is TileLang's, but TileScope does not support it yet
