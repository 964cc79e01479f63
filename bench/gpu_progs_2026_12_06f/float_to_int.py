# Probe (helper-112, section D): float -> int casts out of the target's range. The interpreters
# wrap (int8(300.7) = 44); PTX cvt.rzi saturates. Run with --check interp to see whether the GPU
# and the interpreter agree; no reference (the language does not promise either).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def float_to_int(M=128):
    @T.prim_func
    def main(B: T.Tensor((M, 4), "int32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(M):
                f = T.cast(i - 64, "float32") * 3.7
                g = T.cast(i - 64, "float32") * 1e8
                B[i, 0] = T.cast(T.cast(f, "int8"), "int32")
                B[i, 1] = T.cast(T.cast(f, "uint8"), "int32")
                B[i, 2] = T.cast(g, "int32")
                B[i, 3] = T.cast(T.cast(g, "int16"), "int32")

    return main
