import tilelang.language as T


# An atomic max into float8: no GPU atomic updates one byte (the 16-bit CAS helper wrote the
# neighbouring element's byte too); TileScope's atomics are listed in the error.
@T.prim_func
def main(A: T.Tensor((8,), "float8_e4m3"), D: T.Tensor((8,), "float8_e4m3")):
    with T.Kernel(1, threads=32) as bx:
        for j in T.Parallel(8):
            T.atomic_max(D[j], A[j])  # expect-error: T.atomic_max into 'D' (float8_e4m3): no atomic max of float8_e4m3 values on the GPU (TileScope's atomics: add of float16, bfloat16, float32, float64, int32, uint32; max/min of int32, uint32, float16, bfloat16, float32)
            # expect-hint: accumulate in a float32 buffer with the atomic and convert to float8_e4m3 afterwards
