# Two user fragments that are no family: a (192,) vector interleaved over 128 threads
# (thread = (j % 2) * 64 + (j // 2) % 64, register j // 128: register 1 of half the threads is a
# padded slot, guarded), and a (64,) vector replicated on 2 threads (thread = i + 64 * rep).
import tilelang
import tilelang.language as T


def tails(N=192, R=64, threads=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), C: T.Tensor((R,), "float32"),
             B: T.Tensor((N,), "float32"), D: T.Tensor((R,), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            X = T.alloc_fragment((N,), "float32")
            Y = T.alloc_fragment((R,), "float32")
            T.annotate_layout({
                X: T.Fragment((N,), forward_thread_fn=lambda j: (j % 2) * 64 + (j // 2) % 64,
                              forward_index_fn=lambda j: j // 128),
                Y: T.Fragment((R,), forward_thread_fn=lambda i, rep: i + 64 * rep, replicate=2,
                              forward_index_fn=lambda i: 0),
            })
            T.copy(A, X)
            T.copy(C, Y)
            for j in T.Parallel(N):
                X[j] = X[j] * 2.0 + 1.0
            for i in T.Parallel(R):
                Y[i] = Y[i] * 3.0
            T.copy(X, B)
            T.copy(Y, D)
    return main


def ref_program(A, C):
    return A * 2.0 + 1.0, C * 3.0
