# A plain T.copy under a condition in a loop: its wait's parity lives in a local the compiler
# flips after each wait (tma_copy_phase), which the timeline now follows; before, it modelled
# parity 0 for every wait and warned of waits passing on phases already waited for and of bytes
# no wait observed. C accumulates the even 32-column tiles of A.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def timeline_conditional_copy(M=64, K=256, bk=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), C: T.Tensor((M, bk), "float32")):
        with T.Kernel(1, threads=128) as bx:
            s = T.alloc_shared((M, bk), "float32")
            acc = T.alloc_fragment((M, bk), "float32")
            T.clear(acc)
            for k in T.serial(K // bk):
                if k % 2 == 0:
                    T.copy(A[0, k * bk], s)
                    for i, j in T.Parallel(M, bk):
                        acc[i, j] += s[i, j]
            T.copy(acc, C)

    return main


def ref_program(A):
    return A.reshape(64, 8, 32)[:, 0::2, :].sum(dim=1)
