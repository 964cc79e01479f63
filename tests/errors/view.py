import tilelang.language as T


# T.view of a kernel tensor keeps its dtype: reading fp16 memory as float32 is not supported yet.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 32), "float32")):
    with T.Kernel(1, threads=128) as bx:
        w = T.view(A, (64, 32), "float32")  # expect-error: T.view: a view with another dtype (float16 as float32) is not supported yet
        T.copy(w, B)
