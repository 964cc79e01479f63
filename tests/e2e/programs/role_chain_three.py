# Three warp roles in one if/elif/else chain, synchronized by mbarriers (the DeepSeek MLA decode
# ws / V3.2 sparse MLA pipelined shape: two consumers and a producer). The first arm waits for
# the second, the second for the third: run as the then-side followed by the whole else-side, the
# second arm would wait for a producer that only runs after it (a false deadlock); the
# interpreters run one coroutine per arm.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def role_chain_three(N=128, threads=96):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            buf = T.alloc_shared((N,), "float32")
            mid = T.alloc_shared((N,), "float32")
            bar_data = T.alloc_barrier(arrive_count=32)
            bar_mid = T.alloc_barrier(arrive_count=32)
            tx = T.get_thread_binding()
            if tx < 32:
                # consumer 2: waits for consumer 1
                T.barrier_wait(bar_mid, 0)
                for i in T.serial(N // 32):
                    B[tx + 32 * i] = mid[tx + 32 * i] * 2.0
            elif tx < 64:
                # consumer 1: waits for the producer behind it in the same else-side
                T.barrier_wait(bar_data, 0)
                for i in T.serial(N // 32):
                    mid[(tx - 32) + 32 * i] = buf[(tx - 32) + 32 * i] + 1.0
                T.barrier_arrive(bar_mid)
            else:
                # producer
                for i in T.serial(N // 32):
                    buf[(tx - 64) + 32 * i] = A[(tx - 64) + 32 * i] * 3.0
                T.barrier_arrive(bar_data)

    return main


def ref_program(A):
    return (A.double() * 3.0 + 1.0) * 2.0
