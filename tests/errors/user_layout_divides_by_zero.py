import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        S = T.alloc_shared((64, 64), "float32")
        T.annotate_layout({S: T.Layout((64, 64), lambda i, j: i * 64 + j // (j - j))})  # expect-error(col 31): the index map divides by zero at element (0, 0)
        T.copy(A, S)
        T.copy(S, B)
