import tilelang.language as T


# Device random numbers (TileLang's rand example: curand Philox state per thread).
@T.prim_func
def main(A: T.Tensor((128,), "uint32")):
    with T.Kernel(1, threads=128) as bx:
        tx = T.get_thread_binding()
        T.rng_init(42, tx, 0)  # expect-error(col 9): T.rng_init is not supported by TileScope yet
        A[tx] = T.rng_rand()
