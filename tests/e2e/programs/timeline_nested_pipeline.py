# A T.Pipelined loop inside an outer T.serial loop: the compiler initialises the pipeline's
# mbarriers again on every outer trip (their parity starts at 0 again), and the timeline must
# follow: before, the barrier check reported every wait of the second trip as passing on a phase
# already waited for (four false errors, exit 1), and the second trip's stages never released.
#   C[r, :] = Q[r, :] @ B^T for the 2 row blocks of 64, B streamed in 32-row tiles (2 stages)
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def timeline_nested_pipeline(M=128, K=128, D=32, bm=64, bk=32):
    @T.prim_func
    def main(Q: T.Tensor((M, D), "float16"), B: T.Tensor((K, D), "float16"), C: T.Tensor((M, K), "float32")):
        with T.Kernel(1, threads=128) as bx:
            Qs = T.alloc_shared((bm, D), "float16")
            Bs = T.alloc_shared((bk, D), "float16")
            S = T.alloc_fragment((bm, bk), "float32")
            for r in T.serial(M // bm):
                T.copy(Q[r * bm, 0], Qs)
                for k in T.Pipelined(K // bk, num_stages=2):
                    T.copy(B[k * bk, 0], Bs)
                    T.clear(S)
                    T.gemm(Qs, Bs, S, transpose_B=True)
                    T.copy(S, C[r * bm, k * bk])

    return main


def ref_program(Q, B):
    return Q.double() @ B.double().T
