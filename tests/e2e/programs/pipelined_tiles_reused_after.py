# A T.Pipelined GEMM whose shared tiles a later loop loads again (helper-117). plan-pipelines keeps
# such copies synchronous ("used outside the loop"); on sm_90a the TMA schedules staged them
# anyway, and the later loop named the unstaged tiles, which had lost their declaration (NVRTC:
# "identifier As_1 is undefined"; the lowered interpreter: "used before its allocation"). The TMA
# schedules now decline the loop, as plan-pipelines did.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def pipelined_tiles_reused_after(M=64, N=64, K=128, bm=64, bn=64, bk=32):
    half = K // (bk * 2)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32"),
             D: T.Tensor((M, N), "float32")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            As = T.alloc_shared((bm, bk), "float16")
            Bs = T.alloc_shared((bk, bn), "float16")
            Cl = T.alloc_fragment((bm, bn), "float32")
            C2 = T.alloc_fragment((bm, bn), "float32")
            T.clear(Cl)
            T.clear(C2)
            for ki in T.Pipelined(half, num_stages=2):
                T.copy(A[0, ki * bk], As)
                T.copy(B[ki * bk, 0], Bs)
                T.gemm(As, Bs, Cl)
            for ki in T.serial(half):
                T.copy(A[0, (half + ki) * bk], As)
                T.copy(B[(half + ki) * bk, 0], Bs)
                T.gemm(As, Bs, C2)
            T.copy(Cl, C)
            T.copy(C2, D)

    return main


def ref_program(A, B):
    h = A.shape[1] // 2
    return A[:, :h].float() @ B[:h].float(), A[:, h:].float() @ B[h:].float()
