# out_idx naming a parameter the kernel does not have.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[5])  # expect-error(col 23): out_idx 5 is out of range for 2 tensor parameters
def k(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i in T.Parallel(N):
                B[i] = A[i]
    return main
