import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        s = T.alloc_shared((64,), "float32")
        T.copy(A[0:32], s[48:80])  # expect-error: T.copy: region of 's' is out of bounds in dimension 0
        T.copy(s, B[0:64])
