# Views of kernel tensors between 4-bit and byte elements: the packed bytes (two 4-bit elements a
# byte, the even one in the low nibble, as the host packs them) read as uint8, and uint8 bytes
# read as float4_e2m1fn pairs. TileLang's test_view_subbyte_dtype_change views a float4_e2m1fn
# buffer as uint8 the same way.
#   Bytes = A's packed bytes;  Fp4 = X's bytes as float4_e2m1fn, two per byte
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def global_view_4bit(M=16, N=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float4_e2m1fn"), X: T.Tensor((M, N // 2), "uint8"),
             Bytes: T.Tensor((M, N // 2), "uint8"), Fp4: T.Tensor((M, N), "float4_e2m1fn")):
        with T.Kernel(1, threads=128) as bx:
            A8 = T.view(A, (M, N // 2), dtype="uint8")
            X4 = T.view(X, (M, N), dtype="float4_e2m1fn")
            for i, j in T.Parallel(M, N // 2):
                Bytes[i, j] = A8[i, j]
            for i, j in T.Parallel(M, N):
                Fp4[i, j] = X4[i, j]

    return main
