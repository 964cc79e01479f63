import tilelang.language as T


# buf.data: the raw pointer of a tensor (passed to an external call or a view).
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        p = A.data  # expect-error: 'A.data' (a view of the tensor's memory) is not supported yet
        for i in T.Parallel(64):
            B[i] = A[i]
