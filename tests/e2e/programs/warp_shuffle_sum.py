# A butterfly sum over groups of W lanes with T.tvm_warp_shuffle, as TileLang's Hadamard
# transform exchanges registers inside a warp: after log2(W) rounds of x += shuffle(x, lane ^ s)
# every thread holds the sum of its group's W values.
import math

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def group_sums(M=4, W=32):
    rounds = int(math.log2(W))

    @T.prim_func
    def main(A: T.Tensor((M, 64), "float32"), B: T.Tensor((M, 64), "float32")):
        with T.Kernel(M, threads=64) as bx:
            tx = T.get_thread_binding(0)
            x = T.alloc_local((1,), "float32")
            x[0] = A[bx, tx]
            for i in T.serial(rounds):
                x[0] = x[0] + T.tvm_warp_shuffle(0xFFFFFFFF, x[0], (tx ^ (1 << i)) % 32, W, 32)
            B[bx, tx] = x[0]

    return main


def ref_program(A, W):
    M = A.shape[0]
    return A.reshape(M, 64 // W, W).sum(2, keepdim=True).expand(M, 64 // W, W).reshape(M, 64)
