# T.alloc_barrier inside a warp role's branch (found by fuzz_meta, issue 14, from a mutated
# mbarrier producer/consumer program): its initialisation ends with a block barrier that the
# other role never reaches -- elaborated IR the verifier rejected (an internal error). It is
# the user's error at the call now.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def roles_loop(R=3, L=5, stages=2):
    @T.prim_func
    def main(X: T.Tensor((R, L * 128), "float32"), Y: T.Tensor((R, 128), "float32")):
        with T.Kernel(R, threads=256) as bx:
            tx = T.get_thread_binding()
            full = T.alloc_barrier([128] * stages)
            empty = T.alloc_barrier([128] * stages)
            acc = T.alloc_var("float32")
            ring = T.alloc_shared((stages, 128), "float32")
            if tx >= 128:
                for k in T.serial(L):
                    T.mbarrier_wait_parity(empty[k % stages], (k // stages + 1) % 2)
                    empty = T.alloc_barrier([128] * stages)  # expect-error(col 29): T.alloc_barrier inside thread-dependent control flow
                    ring[k % stages, tx - 128] = X[bx, k * 128 + tx - 128] * 2.0
                    T.mbarrier_arrive(full[k % stages])
            else:
                for k in T.serial(L):
                    T.mbarrier_wait_parity(full[k % stages], (k // stages) % 2)
                    acc += ring[k % stages, (tx + k) % 128] * (k + 1)
                    T.mbarrier_arrive(empty[k % stages])
                Y[bx, tx] = acc

    return main
