# Spellings from real TileLang files that add nothing to what a kernel computes: iket trace
# markers (tilelang.tools.cuda: a `with` scope beside T.Kernel, marks with payloads), T.tfloat32
# tiles (32-bit float storage) and a module-level torch.cuda.is_available() guard.
# B = A * scale + 1 per element; N need not be a multiple of the block.
import torch
import tilelang
import tilelang.language as T
from tilelang.tools.cuda import iket

BLOCK = 128 if torch.cuda.is_available() else 64


@tilelang.jit(out_idx=[-1])
def instrumented(N=256, scale=0.5, threads=128):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, BLOCK), threads=threads) as bx, iket.range("block_total"):
            iket.mark("block_enter", payload=iket.payload(bx, dtype="int32"))
            x = T.alloc_fragment((BLOCK,), T.tfloat32)
            T.copy(A[bx * BLOCK], x)
            for i in T.Parallel(BLOCK):
                x[i] = x[i] * scale + 1.0
            iket.mark("before_store")
            T.copy(x, B[bx * BLOCK])

    return main


def ref_program(A, scale):
    return A * scale + 1.0
