# Accumulator read at shifted rows / sub-regions (sparse-MLA style halves, flash-decoding's
# acc[:valid, :]): in warpgroup order rows i and i + 64 of one warpgroup are in the same thread,
# rows i and i + 16 are not.
#   Y = 2 * A @ B written `parts` row-slices at a time through a (block_M/parts)-row shared tile;
#   Top = first `valid` rows of A @ B (acc[:valid, :] copied to global); Mid = rows 64..64+rows2
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4])
def shift_sub(block_M=128, N=128, K=64, threads=128, policy=1, parts=2, valid=40, rows2=64):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]
    h = block_M // parts

    @T.prim_func
    def main(A: T.Tensor((block_M, K), "float16"), B: T.Tensor((K, N), "float16"),
             Y: T.Tensor((block_M, N), "float32"), Top: T.Tensor((valid, N), "float32"),
             Mid: T.Tensor((rows2, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            a = T.alloc_shared((block_M, K), "float16")
            b = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((block_M, N), "float32")
            half = T.alloc_shared((h, N), "float32")
            m = T.alloc_fragment((block_M,), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.clear(acc)
            T.gemm(a, b, acc, policy=pol)
            T.reduce_sum(acc, m, dim=1)  # keeps the fragment path (the accumulator is read)
            for s in range(parts):
                for i, j in T.Parallel(block_M, N):
                    if i < h:
                        half[i, j] = acc[i + s * h, j] * 2.0
                for i, j in T.Parallel(h, N):
                    Y[s * h + i, j] = half[i, j]
            T.copy(acc[:valid, :], Top)
            T.copy(acc[64:64 + rows2, :], Mid)

    return main


def ref_program(A, B, valid=40, rows2=64):
    c = A.double() @ B.double()
    return (2.0 * c).float(), c[:valid, :].float(), c[64:64 + rows2, :].float()
