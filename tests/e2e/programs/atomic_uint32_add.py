# T.atomic_add into a uint32 tensor: CUDA's own atomicAdd(unsigned*, unsigned) (the headers'
# ts::atomic_add has no uint32 overload; the dtype check refused it while return_prev=True, which
# calls atomicAdd directly, compiled: helper-117). Every thread adds its value into one of 4 bins.
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def atomic_uint32_add(N=256):
    @T.prim_func
    def main(A: T.Tensor((N,), "uint32"), D: T.Tensor((4,), "uint32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(N):
                T.atomic_add(D[i % 4], A[i])

    return main


def ref_program(A):
    a = A.to(torch.int64)
    return torch.stack([a[0::4].sum(), a[1::4].sum(), a[2::4].sum(), a[3::4].sum()]) % 4294967296
