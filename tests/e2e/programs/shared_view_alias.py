# A shared tile and a T.view / T.reshape of it are one set of bytes: data written through one name
# reads back through the other, in the other's shape and dtype, whatever layout the tile has
# (TileLang derives the view's layout from the tile's). With swizzled=True both tiles take a
# 128-byte XOR swizzle (T.annotate_layout), so the views' elements must follow it.
#   Out16 = A flattened (a 1-D T.reshape of A's tile)
#   Out8  = A's bytes, little-endian (a uint8 T.view of A's tile)
#   Out32 = pairs of X's int16 values written through an int16 view of an int32 tile:
#           Out32[i, k] = (X[i, 2k] & 0xFFFF) | (X[i, 2k + 1] << 16)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4])
def shared_view_alias(M=64, N=64, swizzled=False, threads=128):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float16"),
        X: T.Tensor((M, N), "int16"),
        Out16: T.Tensor((M * N,), "float16"),
        Out8: T.Tensor((M, 2 * N), "uint8"),
        Out32: T.Tensor((M, N // 2), "int32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, N), "float16")
            W_s = T.alloc_shared((M, N // 2), "int32")
            A_flat = T.reshape(A_s, [M * N])
            A_bytes = T.view(A_s, (M, 2 * N), dtype="uint8")
            W_halves = T.view(W_s, (M, N), dtype="int16")
            if swizzled:
                T.annotate_layout({
                    A_s: tilelang.layout.make_swizzled_layout(A_s),
                    W_s: tilelang.layout.make_swizzled_layout(W_s),
                })
            T.copy(A, A_s)
            for i, j in T.Parallel(M, N):
                W_halves[i, j] = X[i, j]
            T.copy(A_flat, Out16)
            T.copy(A_bytes, Out8)
            T.copy(W_s, Out32)

    return main
