# Plain T.copy global -> shared tiles (one TMA load each on sm_90a, waited on its own mbarrier)
# and where sink-tma-waits (compiler/transforms/SinkTmaWaits.cpp) may move their waits:
#   mode 0: A and B copied, then a clear, then one T.Parallel reads both: both waits move past
#           B's issue and the clear, to just before the T.Parallel (A and B in flight together);
#   mode 1: A copied and read, then B copied and read: A's wait cannot pass A's reader, so B's
#           copy is issued after it, and B's wait has nothing to pass before its reader;
#   mode 2: mode 0 inside a serial loop over row tiles: the waits move within each iteration,
#           with the parity of the iteration count.
#   mode 3: A copied and never read, then a float32 scratch tile Z written and read: the wait goes
#           to the end, so A_s is in flight over Z's whole life and must not share its bytes
#           (plan-smem keeps a TMA load's tile live up to its wait).
# Out = A + 2 B (modes 0, 1), summed over the row tiles in mode 2; mode 3: 2 B with rows rolled by 1.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def sink_tma_waits(M=64, N=64, tiles=3, mode=0, threads=128):
    rows = tiles * M if mode == 2 else M

    @T.prim_func
    def main(A: T.Tensor((rows, N), "float16"), B: T.Tensor((rows, N), "float16"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, N), "float16")
            B_s = T.alloc_shared((M, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            if mode == 0:
                T.copy(A[0, 0], A_s)
                T.copy(B[0, 0], B_s)
                T.clear(acc)
                for i, j in T.Parallel(M, N):
                    acc[i, j] = T.cast(A_s[i, j], "float32") + 2 * T.cast(B_s[i, j], "float32")
            elif mode == 1:
                T.copy(A[0, 0], A_s)
                for i, j in T.Parallel(M, N):
                    acc[i, j] = T.cast(A_s[i, j], "float32")
                T.copy(B[0, 0], B_s)
                for i, j in T.Parallel(M, N):
                    acc[i, j] += 2 * T.cast(B_s[i, j], "float32")
            elif mode == 3:
                Z = T.alloc_shared((M, N), "float32")
                T.copy(A[0, 0], A_s)
                for i, j in T.Parallel(M, N):
                    Z[i, j] = T.cast(B[i, j], "float32")
                for i, j in T.Parallel(M, N):
                    acc[i, j] = 2 * Z[(i + 1) % M, j]
            else:
                T.clear(acc)
                for t in T.serial(tiles):
                    T.copy(A[t * M, 0], A_s)
                    T.copy(B[t * M, 0], B_s)
                    for i, j in T.Parallel(M, N):
                        acc[i, j] += T.cast(A_s[i, j], "float32") + 2 * T.cast(B_s[i, j], "float32")
            T.copy(acc, Out)

    return main


def ref_program(A, B, M=64, N=64, tiles=3, mode=0, threads=128):
    if mode == 3:
        b = B.double()
        return 2 * torch.cat([b[1:], b[:1]], 0)
    s = A.double() + 2 * B.double()
    if mode == 2:
        s = s.reshape(tiles, M, N).sum(0)
    return s
