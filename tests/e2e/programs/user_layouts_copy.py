# User layouts on the copy path: a padded T.Layout (i * (N + 4) + j, same as row padding),
# a column-major T.Layout ([j, i]), a T.Fragment with a transposed thread order (no family:
# digit-affine inverse) and a T.Fragment written out equal to the default block fragment.
import tilelang
import tilelang.language as T


def user_layouts(M=64, N=64, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            S1 = T.alloc_shared((M, N), "float32")
            S2 = T.alloc_shared((M, N), "float32")
            X = T.alloc_fragment((M, N), "float32")
            Y = T.alloc_fragment((M, N), "float32")
            T.annotate_layout({
                S1: T.Layout((M, N), lambda i, j: i * (N + 4) + j),
                S2: T.Layout((M, N), lambda i, j: [j, i]),
                X: T.Fragment((M, N), forward_thread_fn=lambda i, j: (j % 16) * 8 + i % 8,
                              forward_index_fn=lambda i, j: (i // 8) * 4 + j // 16),
                Y: T.Fragment((M, N), forward_thread_fn=lambda i, j: (i % 8) * 16 + (j // 4) % 16,
                              forward_index_fn=lambda i, j: (i // 8) * 4 + j % 4),
            })
            T.copy(A, S1)
            T.copy(S1, X)
            for i, j in T.Parallel(M, N):
                X[i, j] = X[i, j] * 2.0 + 1.0
            T.copy(X, S2)
            T.copy(S2, Y)
            T.copy(Y, B)
    return main


def ref_program(A):
    return A * 2.0 + 1.0
