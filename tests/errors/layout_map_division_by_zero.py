import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        S = T.alloc_shared((64, 64), "float32")
        T.annotate_layout({S: T.Layout((64, 64), lambda i, j: i * 64 + j // 0)})  # expect-error(col 72): integer division by zero
        T.copy(A, S)
        T.copy(S, B)
