# The warp-specialized hand-off of DeepSeek MLA decode ws (examples/deepseek_mla/
# example_mla_decode_ws.py) without the softmax: consumer 0 computes S = Q K^T from one stage of
# a 3-D shared stage tile, writes P = S to a shared tile and accumulates the left half of P V;
# consumer 1 waits for P on an mbarrier and accumulates the right half (V read in place at column
# D/2 of the stage row); a producer arm refills the stages. Each consumer writes its half of O
# through the Q tile (O_shared = Q_shared) to Out. The consumer-1 and producer arms are roles
# nested in consumer 0's else role: insert-sync gave them no named barrier before (issue 8), so
# consumer 1's epilogue read the Q tile before all of its threads wrote it (on the H200 the ws
# kernel's right half was wrong; the lowered interpreter reports the race). sm_90a only (mbarrier
# parity waits).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def role_handoff_slice_gemm(M=64, N=64, D=128, L=4, stages=2, dtype="float16"):
    @T.prim_func
    def main(
        Q: T.Tensor((M, D), dtype),
        KV: T.Tensor((L * N, D), dtype),
        Out: T.Tensor((M, D), dtype),
    ):
        with T.Kernel(1, threads=384) as (bx,):
            Q_shared = T.alloc_shared((M, D), dtype)
            KV_shared = T.alloc_shared((stages, N, D), dtype)
            S_shared = T.alloc_shared((M, N), dtype)
            acc_s = T.alloc_fragment((M, N), "float32")
            acc_o_l = T.alloc_fragment((M, D // 2), "float32")
            acc_o_r = T.alloc_fragment((M, D // 2), "float32")
            bar_q = T.alloc_barrier(arrive_count=384)
            bar_k_ready = T.alloc_barrier(arrive_count=[128] * stages)
            bar_k_free = T.alloc_barrier(arrive_count=[256] * stages)
            bar_s_ready = T.alloc_barrier(arrive_count=256)
            bar_s_free = T.alloc_barrier(arrive_count=256)
            tx = T.get_thread_binding()

            T.copy(Q, Q_shared)
            T.barrier_arrive(bar_q)

            if tx < 128:
                T.fill(acc_o_l, 0)
                T.barrier_wait(bar_q, 0)
                for i in T.serial(L // stages):
                    for stage in T.unroll(stages):
                        T.barrier_wait(bar_k_ready[stage], i & 1)
                        T.clear(acc_s)
                        T.gemm(Q_shared, KV_shared[stage, :, :], acc_s, transpose_B=True)
                        if i != 0 or stage != 0:
                            T.barrier_arrive(bar_s_free)
                            T.barrier_wait(bar_s_free, ((i * stages + stage) & 1) ^ 1)
                        T.copy(acc_s, S_shared)
                        T.gemm(S_shared, KV_shared[stage, :, : D // 2], acc_o_l)
                        T.barrier_arrive(bar_s_ready)
                        T.barrier_arrive(bar_k_free[stage])
                T.copy(acc_o_l, Q_shared[:, : D // 2])
                T.copy(Q_shared[:, : D // 2], Out[:, : D // 2])
            elif tx < 256:
                T.fill(acc_o_r, 0)
                for i in T.serial(L // stages):
                    for stage in T.unroll(stages):
                        T.barrier_arrive(bar_s_ready)
                        T.barrier_wait(bar_s_ready, (i * stages + stage) & 1)
                        T.gemm(S_shared, KV_shared[stage, :, D // 2 :], acc_o_r)
                        T.barrier_arrive(bar_k_free[stage])
                        if stage != stages - 1 or i != L // stages - 1:
                            T.barrier_arrive(bar_s_free)
                T.copy(acc_o_r, Q_shared[:, D // 2 :])
                T.copy(Q_shared[:, D // 2 :], Out[:, D // 2 :])
            else:
                for i in T.serial(L // stages):
                    for stage in T.unroll(stages):
                        T.barrier_wait(bar_k_free[stage], (i & 1) ^ 1)
                        T.copy(KV[(i * stages + stage) * N : (i * stages + stage + 1) * N, :], KV_shared[stage, :, :])
                        T.barrier_arrive(bar_k_ready[stage])

    return main


def ref_program(Q, KV, N, L):
    Q = Q.double()
    KV = KV.double()
    O = Q[:, 0:1] * 0.0 + KV[0:1, :] * 0.0
    for i in range(L):
        K = KV[i * N : (i + 1) * N, :]
        P = (Q @ K.t()).half().double()  # the kernel rounds P to float16 in shared memory
        O = O + P @ K
    return O
