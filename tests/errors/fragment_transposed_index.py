import tilelang.language as T

# One fragment indexed both by the loop variables and transposed in one nest: the nest
# distributes x over the threads in one layout, so each thread would need elements it does not
# hold (a different fragment written transposed, t[j, i] = x[i, j], is fine).

@T.prim_func
def main(A: T.Tensor((32, 32), "float32"), B: T.Tensor((32, 32), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        x = T.alloc_fragment((32, 32), "float32")
        T.copy(A, x)
        for i, j in T.Parallel(32, 32):  # expect-error: fragment 'x' is indexed in two ways in one T.Parallel nest
            x[j, i] = x[i, j] * 2.0
        T.copy(x, B)
