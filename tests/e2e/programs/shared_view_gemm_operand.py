# Views of shared tiles that take a layout of their own while the tile stays row-major: the bytes
# the tile's copy writes must be where the view's layout reads them (one set of bytes; the view's
# layout places the tile's elements too). Found by a fresh-user test: each gave wrong values on
# both targets while the tile-level interpreter was right.
#   mode 0: uint8 tiles filled by T.copy (A8, B8: the bytes of float16 matrices), their float16
#           views are the T.gemm operands (swizzled / wgmma operand layouts):  C = A @ B^T on the
#           float16 values of those bytes;
#   mode 1: a 1-D float16 tile, its 2-D T.reshape is the gemm's A operand:  C = A @ B^T;
#   mode 2: T.annotate_layout swizzles a uint8 view of a row-major float16 tile; the copy out
#           reads A's bytes through it:  Out8 = A's bytes, little-endian.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5])
def shared_view_gemm_operand(M=64, N=64, K=64, mode=0, threads=128):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((N, K), "float16"),
        A8: T.Tensor((M, 2 * K), "uint8"),
        B8: T.Tensor((N, 2 * K), "uint8"),
        C: T.Tensor((M, N), "float32"),
        Out8: T.Tensor((M, 2 * K), "uint8"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            acc = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            if mode == 0:
                A_s = T.alloc_shared((M, 2 * K), "uint8")
                B_s = T.alloc_shared((N, 2 * K), "uint8")
                A_h = T.view(A_s, (M, K), dtype="float16")
                B_h = T.view(B_s, (N, K), dtype="float16")
                T.copy(A8, A_s)
                T.copy(B8, B_s)
                T.gemm(A_h, B_h, acc, transpose_B=True)
            elif mode == 1:
                A_flat = T.alloc_shared((M * K,), "float16")
                B_s = T.alloc_shared((N, K), "float16")
                A_2d = T.reshape(A_flat, [M, K])
                for i in T.Parallel(M * K):
                    A_flat[i] = A[i // K, i % K]
                T.copy(B, B_s)
                T.gemm(A_2d, B_s, acc, transpose_B=True)
            else:
                A_s = T.alloc_shared((M, K), "float16")
                A_b = T.view(A_s, (M, 2 * K), dtype="uint8")
                T.annotate_layout({A_b: tilelang.layout.make_swizzled_layout(A_b)})
                T.copy(A, A_s)
                T.copy(A_b, Out8)
            T.copy(acc, C)
            if mode != 2:
                for i, j in T.Parallel(M, 2 * K):
                    Out8[i, j] = 0

    return main
