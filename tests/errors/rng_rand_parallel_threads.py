import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((256,), "uint32")):
    with T.Kernel(1, threads=128) as (bx,):
        T.rng_init(42)
        for i in T.Parallel(256):
            A[i] = T.rng_rand()  # expect-error: T.rng_rand inside T.Parallel in a block of 128 threads
