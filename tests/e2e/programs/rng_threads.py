# Device random numbers in thread-level code: T.rng_init(seed) with TileLang's default
# subsequence (tx + bx * threads), then a serial loop per thread drawing a 32-bit value (read
# twice through one name: one draw) and a uniform float, and a 64-bit seed.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[0, 1, 2])
def rng_threads(blocks=2, threads=64, draws=3, seed=1234567890123):
    @T.prim_func
    def main(R: T.Tensor((blocks * threads, draws), "uint32"),
             X: T.Tensor((blocks * threads, draws), "uint32"),
             U: T.Tensor((blocks * threads, draws), "float32")):
        with T.Kernel(blocks, threads=threads) as bx:
            tx = T.get_thread_binding()
            T.rng_init(seed)
            for k in T.serial(draws):
                r = T.rng_rand()
                R[bx * threads + tx, k] = r
                X[bx * threads + tx, k] = r ^ 0xFFFF
                U[bx * threads + tx, k] = T.rng_rand_float()

    return main
