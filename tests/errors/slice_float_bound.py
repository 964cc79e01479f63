import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        acc = T.alloc_fragment((8, 64), "float32")
        T.clear(acc[-T.infinity("float32"):8, 0:64])  # expect-error: slice bound of 'acc' is a float32 value
        T.copy(acc, A)
