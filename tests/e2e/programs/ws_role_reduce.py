# Tile work of one warp role only (no mbarriers): warp group `role` of a 256-thread block loads a
# tile into a fragment laid out over its 128 threads, takes each row's maximum (a reduction whose
# lowering combines warps through shared memory: a named barrier of the role, not
# __syncthreads, which the other warp group never reaches) and writes 2 * max + the row's sum.
#   Y[i] = 2 * max_j X[i, j] + sum_j X[i, j]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def ws_role_reduce(M=64, N=128, role=1):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=256) as bx:
            x = T.alloc_fragment((M, N), "float32")
            mx = T.alloc_fragment((M,), "float32")
            sm = T.alloc_fragment((M,), "float32")
            with T.ws(role):
                T.copy(X, x)
                T.reduce_max(x, mx, dim=1)
                T.reduce_sum(x, sm, dim=1)
                for i in T.Parallel(M):
                    Y[i] = mx[i] * 2.0 + sm[i]

    return main


def ref_program(X):
    return X.amax(1) * 2.0 + X.sum(1)
