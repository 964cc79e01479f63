# Row max and min of 16-bit float fragments: the reductions start from -inf / +inf, which the
# generated CUDA must convert to the fragment dtype (a bare float infinity does not compile into
# ts::half / ts::bfloat16: NVRTC rejected it).
import tilelang
import tilelang.language as T

def rowmax(M=16, N=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(1, threads=128) as (bx,):
            f = T.alloc_fragment((M, N), dtype)
            m = T.alloc_fragment((M,), dtype)
            n = T.alloc_fragment((M,), dtype)
            T.copy(A, f)
            T.reduce_max(f, m, dim=1)
            T.reduce_min(f, n, dim=1)
            for i in T.Parallel(M):
                m[i] = m[i] - n[i]
            T.copy(m, B)
    return main

def ref_program(A):
    return A.amax(1) - A.amin(1)
