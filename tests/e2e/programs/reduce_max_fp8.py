# Row max and min of fp8 fragments (issue 14): the reductions start from -inf / +inf (e5m2) or
# the largest finite value (e4m3, which has no infinity), converted to the fragment's dtype in
# the generated CUDA; NVRTC once rejected a bare float identity assigned to an fp8 register.
import tilelang
import tilelang.language as T


def rowmax(M=16, N=64, dtype="float8_e4m3"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            f = T.alloc_fragment((M, N), dtype)
            m = T.alloc_fragment((M,), dtype)
            n = T.alloc_fragment((M,), dtype)
            T.copy(A, f)
            T.reduce_max(f, m, dim=1)
            T.reduce_min(f, n, dim=1)
            for i in T.Parallel(M):
                B[i] = T.cast(m[i], "float32") - T.cast(n[i], "float32")
    return main


def ref_program(A):
    return A.float().amax(1) - A.float().amin(1)
