import tilelang.language as T


# Inline CUDA source for T.call_extern (TileLang's bitnet decode kernel): the interpreters cannot
# run it.
@T.prim_func
def main(A: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        T.import_source("__device__ float twice(float x) { return 2 * x; }")  # expect-error(col 9): T.import_source is not supported by TileScope yet
        A[0] = 1.0
