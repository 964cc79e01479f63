import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        T.rng_init(42, generator="curandStateXORWOW_t")  # expect-error: generator 'curandStateXORWOW_t' is not supported
        tx = T.get_thread_binding()
        A[tx] = T.rng_rand_float()
