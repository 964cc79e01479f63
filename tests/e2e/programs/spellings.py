# TileLang spellings real files use, in one program: module-level Python computing the values
# the kernel uses (tile counts from other module-level values), dtype values (T.float32 at
# module level, T.float as a default), T.Tensor[shape, dtype], T.float32(x) and T.Cast(dtype, x),
# T.floordiv/T.floormod, T.clamp, T.parallel, tilelang.math.next_power_of_2, iterating a dtype as
# its name, and a slice whose ends share a load. C = clamp(A * alpha + B, -lim, lim) per element.
import tilelang
import tilelang.language as T

M, N = 256, 192
BLOCK = 64
TILES_M = M // BLOCK
NUM_TILES = TILES_M * ((N + BLOCK - 1) // BLOCK)
dtype = T.float32
SHAPE = (M, N)
assert tilelang.math.next_power_of_2(N) == 256
assert "".join(c for c in dtype if c.isdigit()) == "32"


@tilelang.jit(out_idx=[-1])
def spellings(alpha=2.0, lim=1.5, threads=128, accum=T.float):
    tiles_n = T.ceildiv(N, BLOCK)

    @T.prim_func
    def main(A: T.Tensor[SHAPE, dtype], B: T.Tensor[SHAPE, dtype], Offs: T.Tensor[(2,), T.int32],
             C: T.Tensor[SHAPE, dtype]):
        with T.Kernel(NUM_TILES, threads=threads) as b:
            bm = T.floordiv(b, tiles_n)
            bn = T.floormod(b, tiles_n)
            a_f = T.alloc_fragment((BLOCK, BLOCK), accum)
            b_f = T.alloc_fragment((BLOCK, BLOCK), accum)
            base = Offs[0] * 0  # a load: both slice ends below contain it
            T.copy(A[base + bm * BLOCK:base + (bm + 1) * BLOCK, bn * BLOCK:(bn + 1) * BLOCK], a_f)
            T.copy(B[bm * BLOCK, bn * BLOCK], b_f)
            for i in T.parallel(BLOCK):
                for j in T.Parallel(BLOCK):
                    a_f[i, j] = T.clamp(a_f[i, j] * T.float32(alpha) + T.Cast(accum, b_f[i, j]),
                                        -lim, lim)
            T.copy(a_f, C[bm * BLOCK, bn * BLOCK])

    return main


def ref_program(A, B, Offs):
    return (A * 2.0 + B).clamp(-1.5, 1.5)
