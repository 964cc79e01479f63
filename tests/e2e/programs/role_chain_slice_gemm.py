# Three warp roles in one if/elif/else chain (the V3.2 sparse MLA seesaw / MLA decode ws shape:
# a producer arm first, two consumer arms after it), each computing O = (Q K^T) V from one stage
# of a 3-D shared stage tile read in place by T.gemm (mma.sync) and writing O through a shared
# epilogue tile (the Q tile again, as the corpus kernels' O_shared = Q_shared; so Dv == Dk, and
# M == N for the P tile in place in a stage row). The arms after the first are roles nested in
# the first one's else role: insert-sync gave them no named barrier before (issue 8), so their copies into shared memory
# raced with the gemms and the epilogue reads on the GPU (the lowered interpreter reports the
# races). Arm r uses stage `stage_r`, K at column 0 and V at column `off_r` of the stage row; the
# middle arm writes its P tile in place into the stage tile at column Dk (the seesaw's
# S_shared = KV_shared[s, :, D:]) and reads it back as the A operand (V at column 0 there).
import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def role_chain_slice_gemm(M=64, N=64, Dk=64, Dv=64, off=64, stages=2, stage=1, dtype="float16"):
    W = Dk + max(N, off + Dv - Dk)  # a stage row: K (Dk) then room for P (N) and V at off

    @T.prim_func
    def main(
        Q: T.Tensor((3, M, Dk), dtype),
        KV: T.Tensor((3, stages, N, W), dtype),
        Out: T.Tensor((3, M, Dv), dtype),
    ):
        with T.Kernel(1, threads=384) as (bx,):
            q0 = T.alloc_shared((M, Dk), dtype)
            q1 = T.alloc_shared((M, Dk), dtype)
            q2 = T.alloc_shared((M, Dk), dtype)
            kv0 = T.alloc_shared((stages, N, W), dtype)
            kv1 = T.alloc_shared((stages, N, W), dtype)
            kv2 = T.alloc_shared((stages, N, W), dtype)
            p0 = T.alloc_shared((M, N), dtype)
            p2 = T.alloc_shared((M, N), dtype)
            s0 = T.alloc_fragment((M, N), "float32")
            s1 = T.alloc_fragment((M, N), "float32")
            s2 = T.alloc_fragment((M, N), "float32")
            a0 = T.alloc_fragment((M, Dv), "float32")
            a1 = T.alloc_fragment((M, Dv), "float32")
            a2 = T.alloc_fragment((M, Dv), "float32")
            tx = T.get_thread_binding()
            if tx >= 256:
                # first arm ("producer" position): stage 0, V at column 0 (ordinary addresses)
                T.copy(Q[0, :, :], q0)
                for s in T.serial(stages):
                    T.copy(KV[0, s, :, :], kv0[s, :, :])
                T.clear(s0)
                T.gemm(q0, kv0[0, :, 0:Dk], s0, transpose_B=True)
                T.copy(s0, p0)
                T.clear(a0)
                T.gemm(p0, kv0[0, :, 0:Dv], a0)
                T.copy(a0, q0)  # the epilogue tile is the Q tile (O_shared = Q_shared)
                T.copy(q0, Out[0, :, :])
            elif tx < 128:
                # second arm: stage `stage`, P written in place at column Dk of the stage row
                # (over K's tail) and read back as A; V at column 0 (the seesaw's consumer 0)
                T.copy(Q[1, :, :], q1)
                for s in T.serial(stages):
                    T.copy(KV[1, s, :, :], kv1[s, :, :])
                T.clear(s1)
                T.gemm(q1, kv1[stage, :, 0:Dk], s1, transpose_B=True)
                T.copy(s1, kv1[stage, :, Dk : Dk + N])
                T.clear(a1)
                T.gemm(kv1[stage, :, Dk : Dk + N], kv1[stage, :, 0:Dv], a1)
                T.copy(a1, q1)  # the epilogue tile is the Q tile (O_shared = Q_shared)
                T.copy(q1, Out[1, :, :])
            else:
                # third arm: stage `stage`, V at column `off`
                T.copy(Q[2, :, :], q2)
                for s in T.serial(stages):
                    T.copy(KV[2, s, :, :], kv2[s, :, :])
                T.clear(s2)
                T.gemm(q2, kv2[stage, :, 0:Dk], s2, transpose_B=True)
                T.copy(s2, p2)
                T.clear(a2)
                T.gemm(p2, kv2[stage, :, off : off + Dv], a2)
                T.copy(a2, q2)  # the epilogue tile is the Q tile (O_shared = Q_shared)
                T.copy(q2, Out[2, :, :])

    return main


def ref_program(Q, KV, Dk, Dv, off, stage):
    Q = Q.double()
    KV = KV.double()
    outs = []
    for r, (st, vo) in enumerate([(0, 0), (stage, 0), (stage, off)]):
        K = KV[r, st, :, 0:Dk]
        P = (Q[r] @ K.t()).half().double()  # the kernel rounds P to float16 in shared memory
        V = KV[r, st, :, vo : vo + Dv]
        outs.append(P @ V)  # (the kernel rounds O to float16 once)
    return torch.stack(outs)
