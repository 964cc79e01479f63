# A float constant has its operand's dtype (dsa_sparse_finetune's in-place `q * sm_scale` on a
# bfloat16 tile): x * 0.0883883476 with x bfloat16 multiplies by bfloat16(0.0883883476) =
# 0.08837890625, as the CUDA and TileLang do, not by the unrounded constant.
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_inplace(N=32, sm_scale=0.08838834764831845):
    @T.prim_func
    def main(
        A: T.Tensor((N,), "bfloat16"),
        H: T.Tensor((N,), "float16"),
        B: T.Tensor((N,), "bfloat16"),
        G: T.Tensor((N,), "float16"),
    ):
        with T.Kernel(1, threads=32) as bx:
            a_s = T.alloc_shared((N,), "bfloat16")
            h_s = T.alloc_shared((N,), "float16")
            T.copy(A, a_s)
            T.copy(H, h_s)
            for i in T.Parallel(N):
                a_s[i] = a_s[i] * sm_scale
                h_s[i] = h_s[i] * sm_scale
            T.copy(a_s, B)
            T.copy(h_s, G)

    return main
