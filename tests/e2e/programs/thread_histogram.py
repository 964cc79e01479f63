# Tile ops inside thread-level code, as TileLang's top-k selector uses them: T.fill of a shared
# histogram by the whole block, then a scalar T.atomic_add per thread (each thread issues its
# own), barriers by hand, and thread tx < bins storing bin tx.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def histogram(N=1000, bins=16, threads=128):
    @T.prim_func
    def main(X: T.Tensor((N,), "int32"), H: T.Tensor((bins,), "int32")):
        with T.Kernel(1, threads=threads) as bx:
            tx = T.get_thread_binding()
            h = T.alloc_shared((bins,), "int32")
            T.fill(h, 0)
            T.sync_threads()
            for k in T.serial(T.ceildiv(N, threads)):
                if k * threads + tx < N:
                    T.atomic_add(h[X[k * threads + tx] % bins], 1)
            T.sync_threads()
            if tx < bins:
                H[tx] = h[tx]

    return main


def ref_program(X, bins):
    return (X[:, None] % bins == torch.arange(bins)[None, :]).sum(0)
