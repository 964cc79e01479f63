import tilelang.language as T


# FP4 E2M1 (TileLang's DeepSeek V4 activation quantiser).
@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), T.float4_e2m1fn)):  # expect-error: T.float4_e2m1fn is not a dtype TileScope supports yet
    with T.Kernel(1, threads=128) as bx:
        B[0] = A[0]
