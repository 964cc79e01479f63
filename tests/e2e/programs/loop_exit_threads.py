# A `break` that differs between threads (thread-level code): each thread walks its own column
# and stops at the first negative value; the loop keeps counting for the threads still in it.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def first_negative(M=12, N=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), F: T.Tensor((N,), "int32")):
        with T.Kernel(1, threads=N) as bx:
            tx = T.get_thread_binding()
            pos = T.alloc_var("int32")
            pos = M
            for i in T.serial(M):
                if X[i, tx] < 0:
                    pos = i
                    break
            F[tx] = pos

    return main


def ref_program(X):
    rows = torch.arange(X.shape[0])[:, None]
    return torch.where(X < 0, rows, X.shape[0]).amin(0)
