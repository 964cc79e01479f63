# launch: A=4x64x64:float32
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):  # expect-error: argument 'A' (#0): expected rank 2
    with T.Kernel(1, threads=128) as (bx,):
        for i, j in T.Parallel(64, 64):
            B[i, j] = A[i, j]
