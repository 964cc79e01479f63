import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        acc = T.alloc_fragment((8, 64), "float32")
        T.clear(acc[0:8, 60:70])  # expect-error: T.clear: region of 'acc' is out of bounds in dimension 1
        T.copy(acc, A)
