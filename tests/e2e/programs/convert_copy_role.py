# deepseek_mhc/example_mhc_pre.py's shape: inside a warp role (threads 32..95) a T.Parallel loop
# fills a small shared table that every thread of the role then reads, and a T.Pipelined loop
# copies bfloat16 rows into a float32 shared tile (a converting copy) before a weighted sum.
#   Y[c] = sum_r (r + 1) * X[r, c],  Z[r] = 2 * X[r, 0]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def convert_copy_role(N=512, block=128):
    @T.prim_func
    def main(X: T.Tensor((4, N), T.bfloat16), Y: T.Tensor((N,), T.float32),
             Z: T.Tensor((4,), T.float32)):
        with T.Kernel(1, threads=96) as bx:
            if T.get_thread_binding() < 32:
                for j in T.Parallel(4):
                    Z[j] = T.cast(X[j, 0], T.float32) * 2.0
            else:
                w = T.alloc_shared(4, T.float32)
                for j in T.Parallel(4):
                    w[j] = j + 1.0
                for k in T.Pipelined(N // block, num_stages=2):
                    xs = T.alloc_shared((4, block), T.float32)
                    xl = T.alloc_fragment((4, block), T.float32)
                    T.copy(X[0, k * block], xs)
                    T.copy(xs, xl)
                    ol = T.alloc_fragment(block, T.float32)
                    T.clear(ol)
                    for r in T.serial(4):
                        wr = w[r]
                        for i in T.Parallel(block):
                            ol[i] += wr * xl[r, i]
                    T.copy(ol, Y[k * block])

    return main
