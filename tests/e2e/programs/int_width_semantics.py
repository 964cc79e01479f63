# Element values the generated CUDA and the interpreters once computed differently (helper-112's
# differential test), built from the thread index so no input can hide them:
#   int columns: uint32 // and % at and above 2^31 (the CUDA's int floor helpers read them as
#   negative), y - 1 > 5 for a uint32 y = 0 (4294967295 on the GPU; the interpreters said -1),
#   T.abs of a uint32 (NVRTC had no abs(unsigned)), uint64 values at and above 2^63 shifted and
#   compared (the interpreters held them as negative int64);
#   float64 columns: T.max, T.abs, ** and // of float64 (the CUDA called fmaxf, fabsf, powf, floorf:
#   1e300 became inf).
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def int_width_semantics(M=128):
    @T.prim_func
    def main(B: T.Tensor((M, 6), "int64"), F: T.Tensor((M, 4), "float64")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(M):
                y = T.cast(i, "uint32")
                x = y * 33554432 + 7
                z = T.cast(i, "uint64") * 144115188075855872
                B[i, 0] = T.cast(x // 3, "int64")
                B[i, 1] = T.cast(x % 1000, "int64")
                B[i, 2] = T.if_then_else(y - 1 > 5, 1, 0)
                B[i, 3] = T.cast(T.abs(x), "int64")
                B[i, 4] = T.cast(z >> 60, "int64")
                B[i, 5] = T.if_then_else(z > 5, 1, 0)
                d = T.cast(i, "float64") * 1e300
                F[i, 0] = T.max(d, 0.5)
                F[i, 1] = T.abs(-d)
                F[i, 2] = (T.cast(i, "float64") * 1e100) ** 2.0
                F[i, 3] = d // 3e299

    return main


def ref_program(M=128):
    r = torch.arange(M, dtype=torch.int64)
    x = r * 33554432 + 7
    ints = torch.stack([x // 3, x % 1000, torch.where((r == 0) | (r > 6), 1, 0), x, r // 8, torch.where(r > 0, 1, 0)], dim=1)
    d = r.double() * 1e300
    floats = torch.stack([torch.maximum(d, torch.tensor(0.5)), d.abs(), (r.double() * 1e100) ** 2, torch.floor(d / 3e299)], dim=1)
    return ints, floats
