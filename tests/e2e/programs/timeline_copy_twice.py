# Two plain T.copy into one shared tile with no read between them (the first copy's data is
# dead): both TMA copies are in flight together. The timeline holds the first until it lands
# (before, it was "released" at the second copy's issue, before it landed). C = A[:, 32:64].
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def timeline_copy_twice(M=64, K=64, bk=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), C: T.Tensor((M, bk), "float32")):
        with T.Kernel(1, threads=128) as bx:
            t = T.alloc_shared((M, bk), "float32")
            acc = T.alloc_fragment((M, bk), "float32")
            T.copy(A[0, 0], t)
            T.copy(A[0, bk], t)
            T.copy(t, acc)
            T.copy(acc, C)

    return main


def ref_program(A):
    return A[:, 32:64]
