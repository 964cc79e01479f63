# T.atomic_add into a float4_e2m1fn tensor: 4-bit values are packed two per byte and no atomic
# instruction updates half a byte (the generated CUDA took the address of a packed load, which
# NVRTC rejected as a compiler bug): a diagnostic at the atomic instead.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def fp4_atomic(N=64):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Q: T.Tensor((N,), "float4_e2m1fn")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(N):
                T.atomic_add(Q[i], X[i])  # expect-error(col 17): 4-bit values are stored two per byte, and no atomic operation updates half a byte

    return main
