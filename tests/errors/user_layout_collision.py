import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        S = T.alloc_shared((64, 64), "float32")
        T.annotate_layout({S: T.Layout((64, 64), lambda i, j: i * 32 + j)})  # expect-error(col 31): elements (0, 32) and (1, 0) are both mapped to offset 32
        T.copy(A, S)
        T.copy(S, B)
