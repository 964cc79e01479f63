import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 32), "float16")
        B_shared = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.annotate_layout({A_shared: T.Layout((64, 32), lambda i, j: [j, i])})
        T.clear(acc)
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, acc)  # expect-error(col 9): conflicting layouts for shared buffer 'A_shared': T.annotate_layout needs T.Layout at line 10
        T.copy(acc, C)
