# T.reinterpret at every width: float16/bfloat16 <-> int16/uint16, float32 <-> int32 and
# float64 <-> int64, on values whose bit patterns the test derives by hand.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5, 6, 7, 8])
def widths(N=4):
    @T.prim_func
    def main(H: T.Tensor((N,), "float16"), B: T.Tensor((N,), "bfloat16"),
             F: T.Tensor((N,), "float32"), D: T.Tensor((N,), "float64"),
             HB: T.Tensor((N,), "int16"), BB: T.Tensor((N,), "uint16"),
             FB: T.Tensor((N,), "int32"), DB: T.Tensor((N,), "int64"),
             Back: T.Tensor((N,), "float16")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(N):
                HB[i] = T.reinterpret(H[i], "int16")
                BB[i] = T.reinterpret(B[i], "uint16")
                FB[i] = T.reinterpret(F[i], "int32")
                DB[i] = T.reinterpret(D[i], "int64")
                Back[i] = T.reinterpret(T.reinterpret(H[i], "uint16") ^ 0x8000, "float16")

    return main
