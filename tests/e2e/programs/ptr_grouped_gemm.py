# A grouped GEMM over pointer tables: group g computes C_g = A_g @ B_g for its own separately
# allocated (max_m, K) x (K, N) operands; the blocks of the groups follow each other along x and
# each finds its group from the table of first tiles (tile_starts). Rows past a group's size are
# zero in A_g, so they are zero in C_g. Checked against float64 by PointerTableE2ETest.cpp.
import tilelang
import tilelang.language as T


def ptr_grouped_gemm(G=2, max_m=48, K=64, N=32, bm=32, bn=32, bk=32, tiles=3, threads=128):
    @T.prim_func
    def main(
        A_ptrs: T.Tensor((G,), T.ptr),
        B_ptrs: T.Tensor((G,), T.ptr),
        C_ptrs: T.Tensor((G,), T.ptr),
        tile_starts: T.Tensor((G,), "int32"),
    ):
        with T.Kernel(tiles, T.ceildiv(N, bn), threads=threads) as (bx, by):
            A_s = T.alloc_shared((bm, bk), "float16")
            B_s = T.alloc_shared((bk, bn), "float16")
            acc = T.alloc_fragment((bm, bn), "float32")
            g = T.alloc_var("int32")
            first = T.alloc_var("int32")
            g = 0
            first = 0
            for i in range(G):
                if bx >= tile_starts[i]:
                    g = i
                    first = tile_starts[i]
            row = (bx - first) * bm
            A = T.make_tensor(A_ptrs[g], (max_m, K), "float16")
            B = T.make_tensor(B_ptrs[g], (K, N), "float16")
            C = T.make_tensor(C_ptrs[g], (max_m, N), "float32")
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=2):
                T.copy(A[row, k * bk], A_s)
                T.copy(B[k * bk, by * bn], B_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C[row, by * bn])

    return main
