# A kernel tensor accessed both by a TMA copy (sm_90a) and through a view of its memory
# (T.Tensor(shape, dtype, X.data)). TMA reads and writes global memory through the async proxy:
# a TMA load after the kernel's own generic writes of the tensor would need a
# fence.proxy.async.global, and a TMA store is waited for only until it has read its tile (its
# global writes complete at the kernel's exit), so neither is used when the kernel also accesses
# the tensor -- also not through a view (compared by buffer, both took TMA):
#   mode 0: A is doubled in place through Af (a flat view), then a tile of A is loaded into
#           shared memory and written out transposed: Out = (2 A)^T, and A = 2 A afterwards
#   mode 1: a tile is stored from shared memory into A, then read back through Af,
#           transposed: A = S, Out = 2 S^T
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def tma_tensor_view(mode=0, threads=128):
    M, N = 64, 64

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), S: T.Tensor((M, N), "float16"), Out: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, N), "float16")
            Af = T.Tensor((M * N,), "float16", A.data)
            if mode == 0:
                for i in T.Parallel(M * N):
                    Af[i] = Af[i] * 2
                T.sync_threads()
                T.copy(A[0, 0], A_s)
                for i, j in T.Parallel(M, N):
                    Out[i, j] = A_s[j, i]
            else:
                T.copy(S[0, 0], A_s)
                T.copy(A_s, A[0, 0])
                T.sync_threads()
                for i, j in T.Parallel(M, N):
                    Out[i, j] = Af[j * N + i] * 2

    return main


def ref_program(A, S, mode=0, threads=128):
    return (2 * A.double()).T.half() if mode == 0 else (2 * S.double()).T.half()
