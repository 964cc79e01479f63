import tilelang.language as T


# A T.Pipelined loop overlaps the copies of later iterations with this one: it cannot be left
# early (T.serial / T.unroll / range loops can).
@T.prim_func
def main(A: T.Tensor((256, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float32")
        for k in T.Pipelined(4, num_stages=2):
            T.copy(A[k * 64, 0], s)
            if A[k * 64, 0] < 0:
                break  # expect-error: 'break'/'continue' inside a T.Pipelined loop is not supported
        T.copy(s, B)
