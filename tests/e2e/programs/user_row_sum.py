# Row sums into a T.Fragment row vector replicated over the 16 threads of each row group: the
# map equals the row-reduced companion of the (64, 64) block fragment, so T.reduce_sum accepts it.
import tilelang
import tilelang.language as T


def row_sum(M=64, N=64, threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=threads) as (bx,):
            acc = T.alloc_fragment((M, N), "float32")
            s = T.alloc_fragment((M,), "float32")
            T.annotate_layout({s: T.Fragment((M,), forward_thread_fn=lambda i, rep: (i % 8) * 16 + rep,
                                             replicate=16, forward_index_fn=lambda i: i // 8)})
            T.copy(A, acc)
            T.reduce_sum(acc, s, dim=1)
            T.copy(s, B)
    return main


def ref_program(A):
    return A.sum(1)
