# The 2:4 sparsity metadata helpers of tilelang.cuda.intrinsics.sparse_layout used as
# compile-time numbers: get_e_factor(fp16, int16) = 16 elements per int16 metadata word,
# get_e_factor(fp32, int32) = 16 (1:2 groups of 2), get_e_factor(int8, int8) = 8,
# get_e_replicate_factor(int8) = 1, GROUP_CONFIG[float16] = (2, 4).
import tilelang
import tilelang.language as T
from tilelang.cuda.intrinsics.sparse_layout import GROUP_CONFIG, get_e_factor, get_e_replicate_factor


@tilelang.jit(out_idx=[-1])
def meta_factors(N=64, dtype=T.float16, meta_dtype=T.int16):
    f1 = get_e_factor(dtype, meta_dtype)
    f2 = get_e_factor(T.float32, T.int32)
    f3 = get_e_factor(T.int8, T.int8)
    r = get_e_replicate_factor(T.int8)
    elem, group = GROUP_CONFIG[T.float16]
    k = f1 * 1000 + f2 * 100 + f3 * 10 + r + elem * 0.25 + group * 0.125

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(N):
                B[i] = A[i] + k

    return main


def ref_program(A):
    return A + (16 * 1000 + 16 * 100 + 8 * 10 + 1 + 0.5 + 0.5)
