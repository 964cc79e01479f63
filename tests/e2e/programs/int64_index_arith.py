# Integer arithmetic that only 64 bits hold, next to int32 loop variables (helper-111's
# differential test; every case was right on the interpreters and wrong in the generated CUDA):
#   column 0/1: int64 // and % of negative values (the CUDA's floor helpers took int);
#   column 2:   T.max of an int64 value and an int64 % (NVRTC: no ts::max(long long, int));
#   column 3/4: an int32 variable beside a literal past int32 (typed int32, then simplified into
#               int32 arithmetic that overflowed);
#   column 5:   (i - 2) // 65536 // 65536 in int32 (folded into an int32 divisor of 2^32 = 0).
import tilelang
import torch
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def int64_index_arith(M=64, blocks=2):
    @T.prim_func
    def main(B: T.Tensor((blocks * M, 6), "int64")):
        with T.Kernel(blocks, threads=64) as bx:
            for i in T.Parallel(M):
                r = bx * M + i
                w = T.cast(r, "int64")
                B[r, 0] = (w * 4294967296 - 1) // 3
                B[r, 1] = (w * 4294967296 - 1) % 1000
                B[r, 2] = T.max(w, (w - 5) % 3)
                B[r, 3] = r + (274877906816 + bx) // 128
                B[r, 4] = (r * 4294967296) // 4
                B[r, 5] = (r - 2) // 65536 // 65536

    return main


def ref_program(M=64, blocks=2):
    r = torch.arange(blocks * M, dtype=torch.int64)
    bx = r // M
    cols = [
        (r * 4294967296 - 1) // 3,
        (r * 4294967296 - 1) % 1000,
        torch.maximum(r, (r - 5) % 3),
        r + (274877906816 + bx) // 128,
        (r * 4294967296) // 4,
        (r - 2) // 65536 // 65536,
    ]
    return torch.stack(cols, dim=1)
