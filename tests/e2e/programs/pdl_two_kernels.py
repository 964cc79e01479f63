# Programmatic dependent launch (T.pdl_trigger / T.pdl_sync; frontend/ElaborateBarriers.cpp): two
# kernels in one prim_func, the first letting the second launch early after its stores, the second
# waiting for the first before it reads B. griddepcontrol on sm_90, nothing elsewhere; the
# interpreters run the kernels one after the other.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def pdl_two_kernels(N=1000, block=256):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    B[bx * block + i] = A[bx * block + i] + 1.0
            T.pdl_trigger()
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            T.pdl_sync()
            for i in T.Parallel(block):
                if bx * block + i < N:
                    C[bx * block + i] = B[(bx * block + i + 7) % N] * 2.0

    return main


def ref_program(A):
    import torch
    B = A.double() + 1.0
    return B, torch.cat([B[7:], B[:7]]) * 2.0
