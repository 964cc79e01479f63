import tilelang.language as T


# Device random numbers: cuRAND draws 32- or 64-bit floats only.
@T.prim_func
def main(A: T.Tensor((128,), "float16")):
    with T.Kernel(1, threads=128) as bx:
        tx = T.get_thread_binding()
        T.rng_init(42, tx, 0)
        A[tx] = T.rng_rand_float(16)  # expect-error: T.rng_rand_float: bit must be 32 or 64, got 16
