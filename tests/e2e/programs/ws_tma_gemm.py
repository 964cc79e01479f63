# A warp-specialized GEMM written with hand-written mbarriers: one warp group (the loader role)
# brings each K-slice of A and B into shared memory with T.tma_copy and arrives on `loaded`; the
# other (the math role) waits, accumulates with T.gemm into a fragment laid out over its own 128
# threads, and arrives on `consumed` so the loader may overwrite the tiles. The math role then
# scales the accumulator in a T.Parallel nest and writes C through a shared tile (a hazard
# between the role's own threads: ordered by a named barrier of the role). `math` picks which
# warp group computes (1: roles from thread 128, so the role's lowering rebases the thread index).
#   C = 2 * A @ B + 1
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def ws_gemm(M=128, N=128, K=96, bm=64, bn=64, bk=32, math=1):
    load = 1 - math

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=256) as (bx, by):
            a_tile = T.alloc_shared((bm, bk), "float16")
            b_tile = T.alloc_shared((bk, bn), "float16")
            c_tile = T.alloc_shared((bm, bn), "float32")
            acc = T.alloc_fragment((bm, bn), "float32")
            loaded = T.alloc_barrier(arrive_count=128)
            consumed = T.alloc_barrier(arrive_count=128)
            with T.ws(math):
                T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=2):
                with T.ws(load):
                    T.barrier_wait(consumed, (k + 1) % 2)
                    T.tma_copy(A[by * bm, k * bk], a_tile, barrier=loaded)
                    T.tma_copy(B[k * bk, bx * bn], b_tile, barrier=loaded)
                    T.barrier_arrive(loaded)
                with T.ws(math):
                    T.mbarrier_wait_parity(loaded, k % 2)
                    T.gemm(a_tile, b_tile, acc)
                    T.mbarrier_arrive(consumed)
            with T.ws(math):
                for i, j in T.Parallel(bm, bn):
                    acc[i, j] = acc[i, j] * 2.0 + 1.0
                T.copy(acc, c_tile)
                T.copy(c_tile, C[by * bm, bx * bn])

    return main


def ref_program(A, B):
    return 2.0 * (A.float() @ B.float()) + 1.0
