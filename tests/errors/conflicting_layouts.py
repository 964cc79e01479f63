import tilelang.language as T


# Row values of a gemm accumulator (held by lane quads) cannot be combined with a block
# fragment whose rows are spread differently.
@T.prim_func
def main(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 64), "float16"), X: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 32), "float16")
        B_shared = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        rows = T.alloc_fragment((64,), "float32")
        x = T.alloc_fragment((64, 64), "float32")
        x_sum = T.alloc_fragment((64,), "float32")
        T.clear(acc)
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, acc)
        T.reduce_max(acc, rows, dim=1)
        T.copy(X, x)
        T.reduce_sum(x, x_sum, dim=1)
        for i, j in T.Parallel(64, 64):  # expect-error: conflicting layouts for fragment 'rows'
            x[i, j] = x[i, j] - rows[i]
        T.copy(x, X)
