# A four-dimensional grid (CUDA grids have at most three).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, 1, 1, 1, threads=128) as (bx, by, bz, bw):  # expect-error(col 10): T.Kernel takes 0 to 3 grid extents, got 4
        for i in T.Parallel(64):
            A[i] = 0.0
