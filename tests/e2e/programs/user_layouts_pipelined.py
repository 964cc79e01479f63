# Sum of the N/bn column tiles of A, each tile staged through a column-major shared buffer
# (T.Layout [j, i]) inside a 2-stage pipeline and read into fragments whose thread order is
# transposed (T.Fragment: consecutive threads walk down a column).
import tilelang
import tilelang.language as T


def tile_sum(M=64, N=256, bn=64, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, bn), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            S = T.alloc_shared((M, bn), "float32")
            X = T.alloc_fragment((M, bn), "float32")
            acc = T.alloc_fragment((M, bn), "float32")
            col_major = T.Layout((M, bn), lambda i, j: [j, i])
            down_columns = T.Fragment((M, bn), forward_thread_fn=lambda i, j: (j % 16) * 8 + i % 8,
                                      forward_index_fn=lambda i, j: (i // 8) * (bn // 16) + j // 16)
            T.annotate_layout({S: col_major, X: down_columns, acc: down_columns})
            T.clear(acc)
            for k in T.Pipelined(N // bn, num_stages=2):
                T.copy(A[0, k * bn], S)
                T.copy(S, X)
                for i, j in T.Parallel(M, bn):
                    acc[i, j] += X[i, j]
            T.copy(acc, B)
    return main


def ref_program(A, M, N, bn):
    return A.reshape(M, N // bn, bn).sum(1)
