import tilelang.language as T


# An atomic add into int64: the device headers have no such overload (NVRTC rejected the CUDA as
# "a compiler bug" while both interpreters ran it).
@T.prim_func
def main(A: T.Tensor((8,), "int64"), D: T.Tensor((8,), "int64")):
    with T.Kernel(1, threads=32) as bx:
        for j in T.Parallel(8):
            T.atomic_add(D[j], A[j])  # expect-error: T.atomic_add into 'D' (int64): no atomic add of int64 values on the GPU (TileScope's atomics: add of float16, bfloat16, float32, float64, int32, uint32; max/min of int32, uint32, float16, bfloat16, float32)
            # expect-hint: accumulate in an int32 buffer with the atomic and convert to int64 afterwards
