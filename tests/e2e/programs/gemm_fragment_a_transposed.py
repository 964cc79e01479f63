# A register A operand used transposed, the shape of a FlashAttention backward's dK += dS^T Q:
# S = Q K^T stays in its accumulator, is cast to fp16 and multiplied transposed with Q. The
# fragment is staged through a shared tile (K x M as stored) for the second gemm. dK is written
# in fp16: S is rounded to fp16 on the way, so fp32 output would be compared too tightly.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def dk_like(M=64, N=32, D=64):
    @T.prim_func
    def main(Q: T.Tensor((M, D), "float16"), K: T.Tensor((N, D), "float16"), DK: T.Tensor((N, D), "float16")):
        with T.Kernel(1, threads=128) as (bx,):
            s, s_half = T.alloc_fragment((M, N), "float32"), T.alloc_fragment((M, N), "float16")
            dk = T.alloc_fragment((N, D), "float32")
            q, k = T.alloc_shared((M, D), "float16"), T.alloc_shared((N, D), "float16")
            T.copy(Q, q)
            T.copy(K, k)
            T.clear(s)
            T.gemm(q, k, s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
            T.copy(s, s_half)
            T.clear(dk)
            T.gemm(s_half, q, dk, transpose_A=True)
            T.copy(dk, DK)

    return main


def ref_program(Q, K):
    S = (Q.float() @ K.float().T).half().float()
    return (S.T @ Q.float()).half()
