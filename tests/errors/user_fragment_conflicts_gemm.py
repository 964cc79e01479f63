import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 64), "float16"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 32), "float16")
        B_shared = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        # A block fragment by hand: fine for T.Parallel, not what mma.sync accumulates into.
        rows = T.Fragment((64, 64), forward_thread_fn=lambda i, j: (i % 8) * 16 + (j // 4) % 16, forward_index_fn=lambda i, j: (i // 8) * 4 + j % 4)
        T.annotate_layout({acc: rows})
        T.clear(acc)
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, acc)  # expect-error(col 9): conflicting layouts for fragment 'acc': T.annotate_layout needs T.Fragment at line 11 = block fragment
        T.copy(acc, C)
