# hadamard_transform/example_hadamard.py's shared-memory exchange: per-thread code (it reads the
# thread index) writes S[tx] and reads another thread's S[N - 1 - tx] in the next statement, in a
# loop, with no T.sync_threads(): TileLang's thread storage sync (TileScope's insert-sync) places
# the barriers, before the read and before the next round's overwrite.
#   B[i] = 2 * A[i] + 1
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def shared_exchange(N=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=N) as bx:
            S = T.alloc_shared((N,), "float32")
            v = T.alloc_local((1,), "float32")
            tx = T.get_thread_binding()
            v[0] = A[tx] * 2.0
            for r in T.serial(2):
                S[tx] = v[0]
                v[0] = S[N - 1 - tx] + r
            B[tx] = v[0]

    return main


def ref_program(A):
    return A * 2.0 + 1.0
