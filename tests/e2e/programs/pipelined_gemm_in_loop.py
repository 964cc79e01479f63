# A pipelined GEMM inside an outer loop (helper-116): on sm_90a the inner T.Pipelined takes the TMA
# schedule, whose last wgmma group stays in flight past the loop; the next outer trip's prologue
# refilled the same stages by TMA while that wgmma could still read them (the lowered
# interpreter's race check stopped; the GPU would have multiplied with the next tiles). The
# schedule now retires its groups when it sits in another loop. outer=0: `for ko in T.serial`,
# outer=1: an outer T.Pipelined (itself kept on cp.async: it holds a nested T.Pipelined).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def pipelined_gemm_in_loop(M=128, N=128, K=256, bm=64, bn=64, bk=32, outer=0):
    half = T.ceildiv(K, bk * 2)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            As = T.alloc_shared((bm, bk), "float16")
            Bs = T.alloc_shared((bk, bn), "float16")
            Cl = T.alloc_fragment((bm, bn), "float32")
            T.clear(Cl)
            if outer == 0:
                for ko in T.serial(2):
                    for ki in T.Pipelined(half, num_stages=2):
                        T.copy(A[by * bm, (ko * half + ki) * bk], As)
                        T.copy(B[(ko * half + ki) * bk, bx * bn], Bs)
                        T.gemm(As, Bs, Cl)
            else:
                for ko in T.Pipelined(2, num_stages=1):
                    for ki in T.Pipelined(half, num_stages=2):
                        T.copy(A[by * bm, (ko * half + ki) * bk], As)
                        T.copy(B[(ko * half + ki) * bk, bx * bn], Bs)
                        T.gemm(As, Bs, Cl)
            T.copy(Cl, C[by * bm, bx * bn])

    return main


def ref_program(A, B):
    return A.float() @ B.float()
